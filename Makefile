# Makefile for optlab -- see README.md for the layout and the layer rules.
# Targets: all (default), run, deps, check, lint, bench, sanitize, valgrind,
# clean.  The core builds without the Lua, curses and readline include
# paths; that, and `make lint`, keep the layers apart.

# == settings (edit these) ===================================================
CC       = cc
OPT      = -O3 -g -fno-math-errno -ffp-contract=off
# The build is for this machine (vector units: AVX2 and the like); set
# ARCH= for a binary that runs on any machine of the architecture.  No
# contraction of a*b+c into FMA (-ffp-contract=off), so results are the
# same bit for bit with or without ARCH.
ARCH     = -march=native
WARN     = -Wall -Wextra -Wshadow -Wundef -Wstrict-prototypes \
           -Wmissing-prototypes -Wpointer-arith -Wwrite-strings
STRICT   = -Werror
MYCFLAGS =
MYLDFLAGS=
PKG      = pkg-config
LUAPKG   = lua5.4
# == end of settings =========================================================

CFLAGS   = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(ARCH) $(WARN) $(STRICT) \
           -Icore $(MYCFLAGS)
LDFLAGS  = $(MYLDFLAGS)

# Debian packages providing each pkg-config module (used by `make deps`).
DEBS     = pkg-config liblua5.4-dev libopenblas-dev liblapacke-dev \
           libncurses-dev libreadline-dev perl tmux groff-base \
           librsvg2-bin
PKGMODS  = $(LUAPKG) lapacke openblas ncursesw readline

LA_CFLAGS := $(shell $(PKG) --cflags openblas lapacke 2>/dev/null)
LA_LIBS   := $(shell $(PKG) --libs lapacke openblas 2>/dev/null) -lm
LUA_CFLAGS:= $(shell $(PKG) --cflags $(LUAPKG) 2>/dev/null)
LUA_LIBS  := $(shell $(PKG) --libs $(LUAPKG) 2>/dev/null)
UI_CFLAGS := $(shell $(PKG) --cflags ncursesw readline 2>/dev/null)
UI_LIBS   := $(shell $(PKG) --libs ncursesw readline 2>/dev/null)

CORE_SRC = $(wildcard core/*.c core/*/*.c)
LUA_SRC  = $(wildcard lua/*.c)
REPL_SRC = $(wildcard repl/*.c)
CORE_O   = $(CORE_SRC:.c=.o)
LUA_O    = $(LUA_SRC:.c=.o)
REPL_O   = $(REPL_SRC:.c=.o)
LUA_LIB  = $(wildcard lua/*.lua)
CTESTS   = $(patsubst %.c,%.t,$(wildcard tests/c/t_*.c))
BENCHES  = $(patsubst %.c,%,$(wildcard tests/bench/*.c))

all: optlab

# -- layers -------------------------------------------------------------------
$(CORE_O): CFLAGS += $(LA_CFLAGS)
$(LUA_O):  CFLAGS += $(LA_CFLAGS) $(LUA_CFLAGS) -Ilua
$(REPL_O): CFLAGS += $(LA_CFLAGS) $(LUA_CFLAGS) $(UI_CFLAGS) -Ilua

core/liboptlab.a: $(CORE_O)
	rm -f $@
	$(AR) rcs $@ $(CORE_O)

# The pure-Lua part of the library is compiled into the binary.
lua/lualib.inc: $(LUA_LIB)
	for f in $(LUA_LIB); do \
	  printf '{"%s", (const char[]){\n' "$$f"; \
	  od -An -v -tx1 "$$f" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  printf '0}},\n'; \
	done > $@
lua/lembed.o: lua/lualib.inc

optlab: $(REPL_O) $(LUA_O) core/liboptlab.a
	$(CC) $(CFLAGS) -o $@ $(REPL_O) $(LUA_O) core/liboptlab.a \
	  $(LUA_LIBS) $(UI_LIBS) $(LA_LIBS) $(LDFLAGS)

# C unit tests link the core library alone: no Lua, no curses, no readline.
tests/lib/tap.o: tests/lib/tap.c tests/lib/tap.h
tests/lib/olt.o: tests/lib/olt.c tests/lib/olt.h tests/lib/tap.h
tests/c/%.t: tests/c/%.c tests/lib/olt.h tests/lib/tap.o tests/lib/olt.o \
             core/liboptlab.a
	$(CC) $(CFLAGS) $(LA_CFLAGS) -Itests/lib -o $@ $< tests/lib/olt.o \
	  tests/lib/tap.o core/liboptlab.a $(LA_LIBS) $(LDFLAGS)

# Header dependencies, kept simple: every object depends on every header
# of its own and lower layers.
CORE_H = $(wildcard core/*.h core/*/*.h)
LUA_H  = $(wildcard lua/*.h)
REPL_H = $(wildcard repl/*.h)
$(CORE_O): $(CORE_H)
$(LUA_O):  $(CORE_H) $(LUA_H)
$(REPL_O): $(CORE_H) $(LUA_H) $(REPL_H)

# -- set-up -------------------------------------------------------------------
# Install whatever Debian packages are missing (apt-get; sudo when not root).
deps:
	@missing=""; \
	for m in $(PKGMODS); do $(PKG) --exists $$m 2>/dev/null || missing="$$m"; done; \
	for c in prove tmux groff rsvg-convert; do command -v $$c >/dev/null || missing="$$c"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing Debian packages ($$missing missing)"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEBS) >/dev/null; \
	fi

run: deps
	$(MAKE) all
	./optlab

# -- checks -------------------------------------------------------------------
check: deps
	$(MAKE) all $(CTESTS)
	$(MAKE) lint
	prove -j2 tests/c/*.t
	prove -e ./optlab --ext .lua tests/lua
	prove tests/repl/*.t
	$(MAKE) mancheck

lint:
	@! grep -nE '#include *[<"](lua|lauxlib|lualib|n?curses|readline)' \
	  $(CORE_SRC) $(CORE_H) || { echo "lint: core/ includes Lua/curses/readline"; exit 1; }
	@! grep -nE '(^|[^a-z_])(printf|fprintf|puts|putchar|perror|exit|abort) *\(' \
	  $(CORE_SRC) | grep -vE 's(n)?printf' | grep . || { echo "lint: core/ prints or exits"; exit 1; }
	@! grep -nE '#include *[<"](n?curses|readline)' lua/*.[ch] \
	  || { echo "lint: lua/ includes curses/readline"; exit 1; }
	@echo "lint: layer rules hold"

mancheck:
	@out=$$(groff -man -ww -z -rCHECKSTYLE=3 man/optlab.1 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; echo "man: optlab.1 lints clean"

# AddressSanitizer + UBSan over the whole suite, in a throw-away build.
sanitize:
	$(MAKE) clean
	$(MAKE) check OPT="-O1 -g -fno-omit-frame-pointer" \
	  MYCFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  MYLDFLAGS="-fsanitize=address,undefined"
	$(MAKE) clean

# The C tests and the batch Lua tests under valgrind's memcheck.
valgrind: all $(CTESTS)
	for t in tests/c/*.t; do OPTLAB_QUICK=1 valgrind -q --error-exitcode=9 --leak-check=full $$t >/dev/null || exit 1; done
	for t in tests/lua/*.lua; do valgrind -q --error-exitcode=9 --leak-check=full ./optlab $$t >/dev/null || exit 1; done
	@echo "valgrind: clean"

# -- benchmarks -----------------------------------------------------------------
tests/bench/%: tests/bench/%.c core/liboptlab.a
	$(CC) $(CFLAGS) $(LA_CFLAGS) -o $@ $< core/liboptlab.a $(LA_LIBS) $(LDFLAGS)

bench: all $(BENCHES)
	sh tests/bench/run.sh

clean:
	rm -f optlab core/liboptlab.a $(CORE_O) $(LUA_O) $(REPL_O) lua/lualib.inc \
	  tests/lib/tap.o tests/lib/olt.o tests/c/*.t $(BENCHES)

.PHONY: all run deps check lint mancheck sanitize valgrind bench clean
