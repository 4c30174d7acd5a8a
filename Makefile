# etkit — build, test, demo, install. `make help` lists the targets.
VERSION   := 0.1.0
PREFIX    ?= /usr/local
CC        ?= cc
BUILD     ?= build/rel
BIN       ?= bin
OPT       ?= -O2 -g
SAN       ?=
CFLAGS_ALL = -std=c11 $(OPT) $(SAN) -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 \
             -DETKIT_VERSION='"$(VERSION)"' -Ilibcommon -I$(BUILD) -I/usr/include/graphviz $(CFLAGS)
LDLIBS_ALL = -lprotobuf-c -lzstd -lz -lcjson -lyaml -lgvc -lcgraph -lm -lpthread $(LDLIBS)

TOOLS     := $(notdir $(wildcard cmd/*))
LIB_SRC   := $(wildcard libcommon/*.c)
PROTO_C   := $(BUILD)/proto/et_def.pb-c.c
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(PROTO_C:.c=.o)
LIB_A     := $(BUILD)/libcommon.a
DEPS_OK   := build/.deps-ok

.PHONY: all deps test demo install sanitize-test valgrind-test fuzz bench clean format help
all: $(DEPS_OK) $(TOOLS:%=$(BIN)/%)

help:
	@echo "make [all] | deps | test | demo | install PREFIX=... | sanitize-test | valgrind-test | fuzz | bench | format | clean"

# Debian packages the build and the tests need; installs only what is missing.
DEB_PKGS := libprotobuf-c-dev protobuf-c-compiler libzstd-dev zlib1g-dev libcjson-dev \
            libgraphviz-dev libyaml-dev bats bats-assert bats-support zstd clang \
            libclang-rt-14-dev valgrind time pkg-config jq bsdutils graphviz libxml2-utils
deps:
	@./tests/install-deps.sh $(DEB_PKGS)
	@mkdir -p build && touch $(DEPS_OK)
$(DEPS_OK):
	@$(MAKE) --no-print-directory deps

$(BUILD)/proto/et_def.pb-c.c $(BUILD)/proto/et_def.pb-c.h: proto/et_def.proto | $(DEPS_OK)
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

define tool_rule
$(BIN)/$(1): $(patsubst %.c,$(BUILD)/%.o,$(wildcard cmd/$(1)/*.c)) $(LIB_A)
	@mkdir -p $(BIN)
	$(CC) $(SAN) $$^ -o $$@ $(LDLIBS_ALL)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

# C unit tests of libcommon's formatters and parsers: tests/unit/test_*.c,
# each a program that exits non-zero on failure (run by tests/bats/unit.bats).
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
$(BUILD)/unit/%: tests/unit/%.c $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP $< $(LIB_A) -o $@ $(LDLIBS_ALL)
all: $(UNIT_BIN)

-include $(shell find build $(BUILD) -name '*.d' 2>/dev/null)

# The whole bats suite against the tools in $(BIN).
BATS_ENV = ETKIT_BIN=$(abspath $(BIN)) ETKIT_UNIT=$(abspath $(BUILD))/unit PATH="$(abspath $(BIN)):$$PATH"
test: all
	$(BATS_ENV) bats --print-output-on-failure tests/bats

SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize-test: $(DEPS_OK)
	$(MAKE) --no-print-directory BUILD=build/san BIN=build/san/bin OPT="-O1 -g" SAN="$(SANFLAGS)" all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	ETKIT_BIN=$(abspath build/san/bin) ETKIT_UNIT=$(abspath build/san)/unit PATH="$(abspath build/san/bin):$$PATH" \
	bats --print-output-on-failure tests/bats

valgrind-test: all
	ETKIT_VALGRIND=1 $(BATS_ENV) bats --print-output-on-failure tests/bats

FUZZ_TARGETS := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SECONDS ?= 20
fuzz: $(DEPS_OK)
	$(MAKE) --no-print-directory CC=clang BUILD=build/fuzz BIN=build/fuzz/bin OPT="-O1 -g" \
	  SAN="-fsanitize=fuzzer-no-link,address,undefined" build/fuzz/libcommon.a
	@mkdir -p build/fuzz/bin
	@for t in $(FUZZ_TARGETS); do \
	  extra=$$(cat tests/fuzz/$$t.srcs 2>/dev/null); \
	  clang -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Ilibcommon -Ibuild/fuzz \
	    -Icmd/et-convert tests/fuzz/$$t.c $$extra build/fuzz/libcommon.a -o build/fuzz/bin/$$t $(LDLIBS_ALL) || exit 1; \
	  mkdir -p build/fuzz/corpus/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS)s"; \
	  build/fuzz/bin/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -artifact_prefix=build/fuzz/$$t- \
	    build/fuzz/corpus/$$t tests/fuzz/seeds/$$t 2>build/fuzz/$$t.log || { tail -40 build/fuzz/$$t.log; exit 1; }; \
	done

bench: all
	./bench/run.sh

demo: all
	./samples/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(wildcard man/*.5) $(DESTDIR)$(PREFIX)/share/man/man5/

format:
	clang-format -i libcommon/*.[ch] cmd/*/*.[ch] tests/fuzz/*.c tests/unit/*.c bench/*.[ch]

clean:
	rm -rf build bin
