// Options several commands share, and the search paths and fact sources they produce.
import { defaultSearchPaths, type SearchPaths } from '../config/paths.js';
import { DEFAULT_FACT_TIMEOUT_MS } from '../facts/evaluate.js';
import { LocalFacts } from '../facts/local-facts.js';
import { parseDuration } from '../shared/duration.js';
import { UserError } from '../shared/errors.js';
import { optionValue, optionValues, type OptionSpec, type ParsedArgs } from './options.js';

export const factsOptions: OptionSpec[] = [
  { name: 'facts-dir', value: true, repeatable: true, placeholder: 'DIR', help: 'facts directory, first has priority; replaces the defaults' },
  { name: 'fact-timeout', value: true, placeholder: 'DURATION', help: `time limit of one executable fact (default ${DEFAULT_FACT_TIMEOUT_MS / 1000}s)` },
];

export const templatesOptions: OptionSpec[] = [
  { name: 'templates-dir', value: true, repeatable: true, placeholder: 'DIR', help: 'templates directory, first has priority; replaces the defaults' },
];

export const runnersOptions: OptionSpec[] = [
  { name: 'runners-dir', value: true, repeatable: true, placeholder: 'DIR', help: 'runners directory, first has priority; replaces the defaults' },
];

export const helpOption: OptionSpec = { name: 'help', short: 'h', help: 'show this help' };

export function searchPaths(args: ParsedArgs): SearchPaths {
  const defaults = defaultSearchPaths();
  const pick = (name: string, fallback: string[]) => {
    const given = optionValues(args, name);
    return given.length > 0 ? given : fallback;
  };
  return {
    facts: pick('facts-dir', defaults.facts),
    runners: pick('runners-dir', defaults.runners),
    templates: pick('templates-dir', defaults.templates),
  };
}

export function durationOption(args: ParsedArgs, name: string, fallbackMs: number): number {
  const text = optionValue(args, name);
  if (text === undefined) return fallbackMs;
  try {
    return parseDuration(text);
  } catch (e) {
    throw new UserError(`--${name}: ${(e as Error).message}`);
  }
}

export function localFacts(args: ParsedArgs, paths: SearchPaths): LocalFacts {
  return new LocalFacts({ dirs: paths.facts, timeoutMs: durationOption(args, 'fact-timeout', DEFAULT_FACT_TIMEOUT_MS) });
}
