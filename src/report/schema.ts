// The JSON Schema of the run report (docs/report.md publishes the same, and a test keeps the two
// equal): `govern status` checks a record against it before it reads a field (record/report-check.ts).
export const REPORT_SCHEMA = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "govern run report",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "host",
    "govern_version",
    "started_at",
    "state",
    "noop",
    "errors",
    "resources",
    "notifications",
    "summary",
    "timings"
  ],
  "properties": {
    "host": {
      "type": "string",
      "minLength": 1
    },
    "govern_version": {
      "type": "string",
      "minLength": 1
    },
    "started_at": {
      "type": "string",
      "pattern": "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$"
    },
    "state": {
      "type": "string"
    },
    "commit": {
      "type": "string",
      "pattern": "^[0-9a-f]{40}([0-9a-f]{24})?$"
    },
    "noop": {
      "type": "boolean"
    },
    "errors": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "message"
        ],
        "properties": {
          "message": {
            "type": "string"
          },
          "file": {
            "type": "string"
          },
          "line": {
            "type": "integer",
            "minimum": 1
          },
          "column": {
            "type": "integer",
            "minimum": 1
          },
          "rendered_line": {
            "type": "integer",
            "minimum": 1
          }
        }
      }
    },
    "resources": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "ref",
          "status",
          "message",
          "duration_ms",
          "log",
          "where"
        ],
        "properties": {
          "ref": {
            "type": "string",
            "pattern": "^[A-Za-z][A-Za-z0-9_-]*:"
          },
          "status": {
            "enum": [
              "changed",
              "unchanged",
              "failed",
              "skipped"
            ]
          },
          "message": {
            "type": "string"
          },
          "duration_ms": {
            "type": "integer",
            "minimum": 0
          },
          "log": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "diff": {
            "type": "string",
            "minLength": 1
          },
          "where": {
            "type": "string",
            "minLength": 1
          },
          "would_change": {
            "type": "boolean"
          }
        }
      }
    },
    "notifications": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "from",
          "to",
          "signal",
          "status",
          "message",
          "duration_ms",
          "log"
        ],
        "properties": {
          "from": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "string"
            }
          },
          "to": {
            "type": "string"
          },
          "signal": {
            "type": "string",
            "minLength": 1
          },
          "status": {
            "enum": [
              "sent",
              "failed",
              "skipped",
              "noop"
            ]
          },
          "message": {
            "type": "string"
          },
          "duration_ms": {
            "type": "integer",
            "minimum": 0
          },
          "log": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      }
    },
    "summary": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "resources",
        "changed",
        "unchanged",
        "failed",
        "skipped",
        "excluded",
        "notifications_sent",
        "notifications_noop",
        "notifications_failed",
        "notifications_skipped",
        "duration_ms"
      ],
      "properties": {
        "resources": {
          "type": "integer",
          "minimum": 0
        },
        "changed": {
          "type": "integer",
          "minimum": 0
        },
        "unchanged": {
          "type": "integer",
          "minimum": 0
        },
        "failed": {
          "type": "integer",
          "minimum": 0
        },
        "skipped": {
          "type": "integer",
          "minimum": 0
        },
        "excluded": {
          "type": "integer",
          "minimum": 0
        },
        "notifications_sent": {
          "type": "integer",
          "minimum": 0
        },
        "notifications_noop": {
          "type": "integer",
          "minimum": 0
        },
        "notifications_failed": {
          "type": "integer",
          "minimum": 0
        },
        "notifications_skipped": {
          "type": "integer",
          "minimum": 0
        },
        "duration_ms": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "timings": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "facts_ms",
        "render_ms",
        "parse_ms",
        "plan_ms",
        "apply_ms",
        "notify_ms"
      ],
      "properties": {
        "facts_ms": {
          "type": "integer",
          "minimum": 0
        },
        "render_ms": {
          "type": "integer",
          "minimum": 0
        },
        "parse_ms": {
          "type": "integer",
          "minimum": 0
        },
        "plan_ms": {
          "type": "integer",
          "minimum": 0
        },
        "apply_ms": {
          "type": "integer",
          "minimum": 0
        },
        "notify_ms": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "no_longer_managed": {
      "type": "array",
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "health": {
      "type": "object",
      "additionalProperties": false,
      "required": ["passed", "failed", "failures"],
      "properties": {
        "passed": { "type": "integer", "minimum": 0 },
        "failed": { "type": "integer", "minimum": 0 },
        "failures": { "type": "array", "items": { "type": "string" } }
      }
    },
    "reverted": {
      "type": "object",
      "additionalProperties": false,
      "required": ["from", "to", "reason"],
      "properties": {
        "from": { "type": "string", "pattern": "^[0-9a-f]{40,64}$" },
        "to": { "type": "string", "pattern": "^[0-9a-f]{40,64}$" },
        "reason": { "type": "string" },
        "failed_run": {
          "type": "object",
          "additionalProperties": false,
          "required": ["summary"],
          "properties": {
            "summary": { "$ref": "#/properties/summary" },
            "health": { "$ref": "#/properties/health" }
          }
        }
      }
    }
  }
} as const;
