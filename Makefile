# govern: build, test, demo, install. See README.md.
PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR   = $(DESTDIR)$(PREFIX)/lib/govern
ETCDIR   = $(DESTDIR)$(PREFIX)/etc/govern
BINDIR   = $(DESTDIR)$(PREFIX)/bin
SYSCONFDIR ?= $(PREFIX)/etc
UNITDIR  = $(DESTDIR)$(PREFIX)/lib/systemd/system

.PHONY: all setup build test demo install uninstall bench clean

all: build

# Everything a fresh Debian 12 machine needs for the demo and the tests.
setup:
	scripts/setup-debian
	npm ci --no-audit --no-fund
	$(MAKE) build

build:
	npx tsc -p tsconfig.json

# The whole suite twice: persistent runners one job at a time (the defaults), then one-shot runners
# with four jobs, so both runner protocols and both schedules are covered.
test: build
	npx mocha
	GOVERN_RUNNER_MODE=oneshot GOVERN_JOBS=4 npx mocha

# The built-in example, applied twice: the second run reports no changes.
demo: setup
	bin/govern run examples/demo
	bin/govern run examples/demo

install: build
	install -d $(LIBDIR)/cli $(LIBDIR)/bin $(LIBDIR)/facts.d $(ETCDIR)/facts.d $(ETCDIR)/runners.d $(ETCDIR)/templates.d $(BINDIR)
	rm -rf $(LIBDIR)/dist && install -d $(LIBDIR)/dist
	cp -R dist/src $(LIBDIR)/dist/
	cp package.json package-lock.json $(LIBDIR)/
	cd $(LIBDIR) && npm ci --omit=dev --prefer-offline --no-audit --no-fund --ignore-scripts
	install -m 0755 bin/govern $(LIBDIR)/cli/govern
	cp -R runners/. $(LIBDIR)/bin/
	cp -R facts.d/. $(LIBDIR)/facts.d/
	cp -Rn templates.d/. $(ETCDIR)/templates.d/
	ln -sf ../lib/govern/cli/govern $(BINDIR)/govern
	install -d $(UNITDIR)
	for unit in units/*; do \
	  sed -e 's|/usr/bin/govern|$(PREFIX)/bin/govern|g' -e 's|/etc/default/govern|$(SYSCONFDIR)/default/govern|g' $$unit > $(UNITDIR)/$${unit#units/}; \
	done

uninstall:
	rm -rf $(LIBDIR) $(BINDIR)/govern
	for unit in units/*; do rm -f $(UNITDIR)/$${unit#units/}; done

bench: build
	node dist/bench/run.js $(ARGS)

clean:
	rm -rf dist
