# faultline — the README's commands.  The real build is Meson + Ninja.
#   make run    install dependencies, build, scan TARGET (default: this repo)
#   make check  install dependencies, build, run every test (also under
#               AddressSanitizer + UndefinedBehaviorSanitizer, built by clang)
#   make fuzz   run the libFuzzer targets of every lexer (FUZZ_SECONDS each)
#   make install    build, then install under PREFIX (default /usr/local),
#                   staged under DESTDIR when set: the binary, libfaultline.a,
#                   faultline.h, faultline.pc, the manual pages, the bash, zsh
#                   and fish completions
#   make uninstall  remove what the last `make install` installed

TARGET ?= .
FUZZ_SECONDS ?= 600
PREFIX ?= /usr/local
DESTDIR ?=
BUILD := build
ASAN_BUILD := build-asan

.PHONY: all bootstrap build build-asan run check test fuzz bench install uninstall clean

all: build

bootstrap:
	@bash scripts/bootstrap.sh

# -O3 with debug information: 4 % fewer instructions than -O2 in a scan
$(BUILD)/build.ninja:
	meson setup $(BUILD) -Doptimization=3 -Ddebug=true

build: bootstrap $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(ASAN_BUILD)/build.ninja:
	CC=clang meson setup $(ASAN_BUILD) --buildtype=debug \
		-Db_sanitize=address,undefined -Db_lundef=false

build-asan: bootstrap $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

run: build
	@bash scripts/run.sh $(BUILD)/faultline "$(TARGET)"

test: build
	@bash scripts/run-tests.sh $(BUILD)

check: build build-asan
	@bash scripts/run-tests.sh $(BUILD) $(ASAN_BUILD)

fuzz: bootstrap
	@bash scripts/fuzz.sh $(FUZZ_SECONDS)

bench: build
	@bash bench/run.sh $(BUILD)

# The prefix is the build's (meson configure): `meson install` rebuilds
# what depends on it (faultline.pc) before it copies.  Meson keeps the list
# of what it installed (meson-logs/install-log.txt, DESTDIR included), which
# is what `ninja uninstall` removes.
install: build
	meson configure $(BUILD) -Dprefix=$(PREFIX)
	DESTDIR="$(DESTDIR)" meson install -C $(BUILD) --quiet

uninstall:
	ninja -C $(BUILD) uninstall

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
