# govern: build, test, demo, install, package. See README.md and docs/packaging.md.
PREFIX     ?= /usr/local
# The Debian package installs with PREFIX=/usr SYSCONFDIR=/etc (docs/packaging.md).
SYSCONFDIR ?= $(PREFIX)/etc
DESTDIR    ?=
LIBDIR      = $(DESTDIR)$(PREFIX)/lib/govern
ETCDIR      = $(DESTDIR)$(SYSCONFDIR)/govern
BINDIR      = $(DESTDIR)$(PREFIX)/bin
MANDIR      = $(DESTDIR)$(PREFIX)/share/man/man1
COMPLETIONDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
DOCDIR      = $(DESTDIR)$(PREFIX)/share/doc/govern
# The Prometheus rules and the Grafana dashboard (docs/fleet.md).
SHAREDIR    = $(DESTDIR)$(PREFIX)/share/govern
MANUAL      = node dist/src/manual/main.js --prefix $(PREFIX) --sysconfdir $(SYSCONFDIR)
# Debian 12's packages keep units in /lib/systemd/system (packaging/build-deb sets it).
UNITDIR    ?= $(PREFIX)/lib/systemd/system

VSCODE      = editors/vscode

.PHONY: all build check-deps vsix test prepare-tests test-all test-modes test-node18 demo install uninstall deb bench bench-compare clean docs

all: build

# npm's own record of what it installed is newer than the lock once `npm ci` has run for it.
node_modules/.package-lock.json: package-lock.json
	scripts/setup-debian demo
	npm ci --no-audit --no-fund

# tsc into dist/src, then the bundles bin/govern and runners/* load (dist/bundle, scripts/bundle.js).
build: node_modules/.package-lock.json
	npx tsc -p tsconfig.json
	node scripts/bundle.js

# The flow of src/ (.dependency-cruiser.cjs, docs/architecture.md): no import against it, no cycle.
check-deps: node_modules/.package-lock.json
	npx depcruise --config .dependency-cruiser.cjs src

# The suite in two passes (docs/testing.md): every test with the defaults (persistent runners, one
# job), then, with one-shot runners and four jobs, the tests that start a run: those whose title
# has no `#once` (a test that only calls runners, govern's code in-process or a command that never
# applies reads neither GOVERN_RUNNER_MODE nor GOVERN_JOBS, so a second pass would repeat it exactly). The Debian packages
# the tests drive are installed first, when missing. The second pass runs on Debian 12's own
# Node.js 18, the oldest govern supports, so the first is the host's Node and the second the floor.
# `make test` builds once and runs the two passes at the same time (scripts/two-passes): the suite
# runs beside another suite, and the two together take little more than the first alone.
MODES_PASS  = GOVERN_RUNNER_MODE=oneshot GOVERN_JOBS=4
FIRST_PASS  = npx mocha
NODE18_PASS = scripts/with-debian-node18 sh -c 'echo "Node.js $$(node --version)" && $(MODES_PASS) exec node node_modules/mocha/bin/mocha.js --grep "\#once" --invert'
test: prepare-tests
	scripts/two-passes '$(FIRST_PASS)' '$(subst ','\'',$(NODE18_PASS))'

# What both passes start from: the Debian packages, the build, the dependency check.
prepare-tests:
	scripts/setup-debian test
	$(MAKE) build
	$(MAKE) check-deps

# The second pass on the host's Node instead (a quicker look, without Debian's Node 18).
test-modes: build
	$(MODES_PASS) npx mocha --grep '#once' --invert

# The first pass alone (and the dependency check): every test, with the defaults.
test-all: prepare-tests
	$(FIRST_PASS)

# The second pass of `make test` alone: the tests of the modes pass, on Debian 12's own Node.js 18
# (scripts/with-debian-node18), with mocha started directly: the host's npm need not run on Node 18.
test-node18: build
	$(NODE18_PASS)

# The keys tables of docs/{pkg,service,file,exec}.md, from the runners' descriptions.
docs: build
	scripts/update-runner-docs

# The VS Code extension (docs/editors.md): its own dependencies (editors/vscode/package-lock.json,
# never the main install's), the language client bundled, packaged by @vscode/vsce.
vsix: $(VSCODE)/govern.vsix
$(VSCODE)/govern.vsix: $(VSCODE)/package.json $(VSCODE)/package-lock.json $(VSCODE)/extension.js $(VSCODE)/language-configuration.json $(VSCODE)/syntaxes/govern.tmLanguage.json $(VSCODE)/README.md
	cd $(VSCODE) && npm ci --no-audit --no-fund && npm run bundle && npm run package

# The built-in example, applied twice: the second run reports no changes.
demo: build
	bin/govern run examples/demo
	bin/govern run examples/demo

install: build
	install -d $(LIBDIR)/cli $(LIBDIR)/bin $(LIBDIR)/facts.d $(ETCDIR)/facts.d $(ETCDIR)/runners.d $(ETCDIR)/templates.d $(BINDIR) $(MANDIR) $(COMPLETIONDIR) $(DOCDIR)/docs
	rm -rf $(LIBDIR)/dist && install -d $(LIBDIR)/dist
	cp -R dist/src dist/bundle $(LIBDIR)/dist/
	cp -R modules $(LIBDIR)/
	install -m 0644 package.json $(LIBDIR)/
	scripts/copy-production-modules $(LIBDIR)
	printf '{"sysconfdir": "%s"}\n' '$(SYSCONFDIR)' > $(LIBDIR)/layout.json
	install -m 0755 bin/govern $(LIBDIR)/cli/govern
	cp -R runners/. $(LIBDIR)/bin/
	cp -R facts.d/. $(LIBDIR)/facts.d/
	cp -Rn templates.d/. $(ETCDIR)/templates.d/
	$(MANUAL) man > $(MANDIR)/govern.1
	$(MANUAL) bash-completion > $(COMPLETIONDIR)/govern
	install -m 0644 README.md $(DOCDIR)/
	install -m 0644 docs/*.md $(DOCDIR)/docs/
	install -d $(SHAREDIR)/monitoring
	install -m 0644 monitoring/govern-rules.yml monitoring/govern-dashboard.json $(SHAREDIR)/monitoring/
	ln -sf ../lib/govern/cli/govern $(BINDIR)/govern
	install -d $(DESTDIR)$(UNITDIR)
	for unit in units/*; do \
	  sed -e 's|/usr/bin/govern|$(PREFIX)/bin/govern|g' -e 's|/etc/default/govern|$(SYSCONFDIR)/default/govern|g' $$unit > $(DESTDIR)$(UNITDIR)/$${unit#units/}; \
	done

uninstall:
	rm -rf $(LIBDIR) $(BINDIR)/govern $(MANDIR)/govern.1 $(COMPLETIONDIR)/govern $(DOCDIR) $(SHAREDIR)
	for unit in units/*; do rm -f $(DESTDIR)$(UNITDIR)/$${unit#units/}; done

# govern_VERSION_all.deb in this directory, built with dpkg-deb (docs/packaging.md).
deb: build
	packaging/build-deb

bench: build
	node dist/bench/run.js $(ARGS)

# This checkout against a build of REV, paired (bench/README.md, "Round three"): run it against the
# last release before a change to start-up or the run path lands. As root; PAIRS=11 by default.
bench-compare: build
	@test -n "$(REV)" || { echo 'usage: make bench-compare REV=<git revision> [PAIRS=11]' >&2; exit 2; }
	node dist/bench/revisions.js --rev '$(REV)' --pairs $(or $(PAIRS),11)

clean:
	rm -rf dist $(VSCODE)/dist $(VSCODE)/govern.vsix
