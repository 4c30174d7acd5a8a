# etkit — build, test, demo, install. `make help` lists the targets.
#
# Plain `make` only builds: it never installs anything, and names what is
# missing when a library is not there. `make deps` installs the Debian
# packages the build and the tests need; `make demo` and `make test` call it.
VERSION   := 0.1.0
PREFIX    ?= /usr/local
CC        ?= cc
BUILD     ?= build/rel
BIN       ?= bin
OPT       ?= -O2 -g
SAN       ?=
# pkg-config modules: libcommon's, and those of the tools that use more.
PC_COMMON  := libprotobuf-c libzstd zlib libcjson
PC_et-sim  := yaml-0.1 openblas lapacke
PC_et-validate := yaml-0.1
PC_et-viz  := libgvc libcgraph
PC_layerdag-sample := openblas lapacke
PC_ALL     := $(PC_COMMON) $(PC_et-sim) $(PC_et-viz) $(PC_layerdag-sample)
# Evaluated when used, so that `make deps` works before pkg-config exists.
pc_cflags  = $(shell pkg-config --cflags $(1) 2>/dev/null)
pc_libs    = $(shell pkg-config --libs $(1) 2>/dev/null)
CFLAGS_ALL = -std=c11 $(OPT) $(SAN) -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 \
             -DETKIT_VERSION='"$(VERSION)"' -Ilibcommon -Icmd -I$(BUILD) \
             $(call pc_cflags,$(PC_ALL)) $(CFLAGS)
LIBS_COMMON = $(call pc_libs,$(PC_COMMON)) -lm -lpthread
# The libraries a program links: libcommon's, plus its tools' own.
tool_libs  = $(call pc_libs,$(foreach t,$(1),$(PC_$(t)))) $(LIBS_COMMON) $(LDLIBS)

TOOLS     := $(notdir $(wildcard cmd/*))
LIB_SRC   := $(wildcard libcommon/*.c)
PROTO_C   := $(BUILD)/proto/et_def.pb-c.c
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(PROTO_C:.c=.o)
LIB_A     := $(BUILD)/libcommon.a
# libcommon/app/: the program-support layer (prints, exits, signal handlers,
# progress on the terminal, the command line), linked by the tools, the
# tests and the fuzz targets but not part of the library (app/et_app.h).
APP_SRC   := $(wildcard libcommon/app/*.c)
APP_A     := $(BUILD)/libetapp.a
# Each tool's files but main.c form a static library that its main, its
# fuzz targets and the unit tests link.
tool_a     = $(BUILD)/cmd/$(1)/lib$(1).a
tool_objs  = $(patsubst %.c,$(BUILD)/%.o,$(filter-out cmd/$(1)/main.c,$(shell find cmd/$(1) -name '*.c' | LC_ALL=C sort)))

.PHONY: all deps check-deps test demo install sanitize-test valgrind-test fuzz fuzz-build \
        fuzz-replay bench clean format help
all: check-deps $(TOOLS:%=$(BIN)/%)

help:
	@echo "make [all] | deps | test | demo | install PREFIX=... | sanitize-test | valgrind-test | fuzz |"
	@echo "     fuzz-replay | bench | format | clean"

# Debian packages the build and the tests need; installs only what is missing.
DEB_PKGS := libprotobuf-c-dev protobuf-c-compiler libzstd-dev zlib1g-dev libcjson-dev \
            libgraphviz-dev libyaml-dev bats bats-assert bats-support zstd clang \
            libclang-rt-14-dev valgrind time pkg-config jq bsdutils graphviz libxml2-utils \
            libopenblas-dev liblapacke-dev
deps:
	@./tests/install-deps.sh $(DEB_PKGS)

# What the build needs, checked without installing anything.
check-deps:
	@command -v pkg-config >/dev/null && command -v protoc-c >/dev/null && \
	  pkg-config --exists $(PC_ALL) || \
	  { echo "make: the build needs pkg-config, protoc-c and $(PC_ALL): run 'make deps'" >&2; \
	    exit 1; }

$(BUILD)/proto/et_def.pb-c.c $(BUILD)/proto/et_def.pb-c.h: proto/et_def.proto
	@mkdir -p $(BUILD)
	protoc-c --c_out=$(BUILD) proto/et_def.proto

$(BUILD)/%.o: %.c $(BUILD)/proto/et_def.pb-c.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(PROTO_C:.c=.o): $(PROTO_C)
	$(CC) $(CFLAGS_ALL) -Wno-unused-parameter -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(APP_A): $(APP_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	ar rcs $@ $^

define tool_rule
$(call tool_a,$(1)): $(call tool_objs,$(1))
	@rm -f $$@
	ar rcs $$@ $$^
$(BIN)/$(1): $(BUILD)/cmd/$(1)/main.o $(call tool_a,$(1)) $(APP_A) $(LIB_A)
	@mkdir -p $(BIN)
	$(CC) $(SAN) $$^ -o $$@ $$(call tool_libs,$(1))
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

# The tools whose code a test or fuzz source uses: those whose headers it
# includes as "TOOL/...".
used_tools = $(filter $(TOOLS),$(sort $(shell sed -n 's|^\#include "\([a-z-]*\)/.*|\1|p' $(1) 2>/dev/null)))

# C unit tests: tests/unit/test_*.c, each a program that exits non-zero on
# failure (run by tests/bats/unit.bats), linked with the tools it uses.
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
.SECONDEXPANSION:
$(BUILD)/unit/%: tests/unit/%.c $$(foreach t,$$(call used_tools,tests/unit/$$*.c),$$(call tool_a,$$(t))) \
                 $(APP_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP $< $(filter %.a,$^) -o $@ $(call tool_libs,$(call used_tools,$<))
all: $(UNIT_BIN)

-include $(shell find build $(BUILD) -name '*.d' 2>/dev/null)

# The whole bats suite against the tools in $(BIN), after `make deps`.
BATS_ENV = ETKIT_BIN=$(abspath $(BIN)) ETKIT_UNIT=$(abspath $(BUILD))/unit PATH="$(abspath $(BIN)):$$PATH"
test: deps
	@$(MAKE) --no-print-directory all
	$(BATS_ENV) bats --print-output-on-failure tests/bats

SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize-test: deps
	$(MAKE) --no-print-directory BUILD=build/san BIN=build/san/bin OPT="-O1 -g" SAN="$(SANFLAGS)" all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	ETKIT_BIN=$(abspath build/san/bin) ETKIT_UNIT=$(abspath build/san)/unit PATH="$(abspath build/san/bin):$$PATH" \
	bats --print-output-on-failure tests/bats

valgrind-test: deps
	@$(MAKE) --no-print-directory all
	ETKIT_VALGRIND=1 $(BATS_ENV) bats --print-output-on-failure tests/bats

# Fuzz targets: tests/fuzz/fuzz_*.c, each linked against a libFuzzer + ASan +
# UBSan build of libcommon and of the tools whose headers it includes.
# `make fuzz` runs each for FUZZ_SECONDS; `make fuzz-replay` (run by the bats
# suite) builds them all and runs each once over its seeds, which keep every
# input that ever found a bug.
FUZZ_BUILD   ?= build/fuzz
FUZZ_TARGETS := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/bin/%)
FUZZ_SECONDS ?= 20
# UBSan findings abort (no recovery), so libFuzzer saves the input and a
# seed that triggers one fails fuzz-replay.
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := -std=c11 -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -D_GNU_SOURCE -Ilibcommon -Icmd \
                -I$(FUZZ_BUILD)
fuzz-build: deps
	@$(MAKE) --no-print-directory CC=clang BUILD=$(FUZZ_BUILD) BIN=$(FUZZ_BUILD)/bin OPT="-O1 -g" \
	  SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BINS)
$(FUZZ_BUILD)/bin/%: tests/fuzz/%.c tests/fuzz/fuzz_util.h \
                     $$(foreach t,$$(call used_tools,tests/fuzz/$$*.c),$$(call tool_a,$$(t))) \
                     $(APP_A) $(LIB_A)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) $< $(filter %.a,$^) -o $@ $(call tool_libs,$(call used_tools,$<))
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS)s"; \
	  $(FUZZ_BUILD)/bin/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	    -artifact_prefix=$(FUZZ_BUILD)/$$t- $(FUZZ_BUILD)/corpus/$$t tests/fuzz/seeds/$$t \
	    2>$(FUZZ_BUILD)/$$t.log || { tail -40 $(FUZZ_BUILD)/$$t.log; exit 1; }; \
	done
fuzz-replay: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  seeds=$$(ls tests/fuzz/seeds/$$t/* 2>/dev/null); \
	  [ -n "$$seeds" ] || { echo "fuzz-replay: $$t has no seeds in tests/fuzz/seeds/$$t"; exit 1; }; \
	  $(FUZZ_BUILD)/bin/$$t $$seeds >$(FUZZ_BUILD)/$$t.replay.log 2>&1 || \
	    { tail -40 $(FUZZ_BUILD)/$$t.replay.log; exit 1; }; \
	  echo "fuzz-replay: $$t: $$(echo "$$seeds" | wc -w) seeds"; \
	done

bench: all
	./bench/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	./samples/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(wildcard man/*.5) $(DESTDIR)$(PREFIX)/share/man/man5/

format:
	clang-format -i $$(find libcommon cmd -name '*.[ch]') tests/fuzz/*.c tests/unit/*.c bench/*.[ch]

clean:
	rm -rf build bin
