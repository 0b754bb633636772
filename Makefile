# Makefile for optlab -- see README.md for the layout and the layer rules.
# Targets: all (default), run, deps, check, lint, bench, sanitize, valgrind,
# fuzz, extend, clean.  The core builds without the Lua, curses and readline
# include paths; that, and `make lint`, keep the layers apart.

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
           -Icore -Icore/plot $(MYCFLAGS)
LDFLAGS  = $(MYLDFLAGS)

# Debian packages providing each pkg-config module (used by `make deps`).
DEBS     = pkg-config liblua5.4-dev libopenblas-dev liblapacke-dev \
           libncurses-dev libreadline-dev perl tmux groff-base \
           librsvg2-bin librsvg2-dev libcairo2-dev poppler-utils
PKGMODS  = $(LUAPKG) lapacke openblas ncursesw readline librsvg-2.0 cairo

LA_CFLAGS := $(shell $(PKG) --cflags openblas lapacke 2>/dev/null)
LA_LIBS   := $(shell $(PKG) --libs lapacke openblas 2>/dev/null) -lm
LUA_CFLAGS:= $(shell $(PKG) --cflags $(LUAPKG) 2>/dev/null)
LUA_LIBS  := $(shell $(PKG) --libs $(LUAPKG) 2>/dev/null)
UI_CFLAGS := $(shell $(PKG) --cflags ncursesw readline 2>/dev/null)
UI_LIBS   := $(shell $(PKG) --libs ncursesw readline 2>/dev/null)
# PNG and PDF figures (lua/lfigure.c): librsvg draws the SVG on a cairo
# surface.  Without them the program builds and says so when asked for
# one; their headers are system headers (-isystem), outside -Werror.  They
# are not linked: lua/lfigure.c loads them on the first figure (FIG_LIBS
# only says whether they are there).
FIG_CFLAGS:= $(patsubst -I%,-isystem %,\
             $(shell $(PKG) --cflags librsvg-2.0 cairo 2>/dev/null))
FIG_LIBS  := $(shell $(PKG) --libs librsvg-2.0 cairo 2>/dev/null)

CORE_SRC = $(wildcard core/*.c core/*/*.c)
LUA_SRC  = $(wildcard lua/*.c)
REPL_SRC = $(wildcard repl/*.c)
CORE_O   = $(CORE_SRC:.c=.o)
LUA_O    = $(LUA_SRC:.c=.o)
REPL_O   = $(REPL_SRC:.c=.o)
# The pure-Lua library files, in the order lua/lembed.c runs them at
# start-up.  The order matters: help.lua makes core.fdocs and core.frows,
# which the later files fill (their rows show in help()'s overview in this
# order) and prelude.lua reads; raceplot.lua adds plot to the methods table
# race.lua makes.  A new file goes after the files it uses; `make lint`
# checks that every lua/*.lua is listed.
LUA_LIB  = lua/help.lua lua/lpdf.lua lua/prelude.lua lua/race.lua \
           lua/raceplot.lua lua/sweep.lua lua/tasks.lua lua/lesson.lua
CTESTS   = $(patsubst %.c,%.t,$(wildcard tests/c/t_*.c))
# tests/bench/ipopt (IPOPT against sqp) is built only when IPOPT's
# development package (coinor-libipopt-dev) is installed; make bench
# installs it.
IPOPT_CFLAGS := $(shell $(PKG) --cflags ipopt 2>/dev/null)
IPOPT_LIBS := $(shell $(PKG) --libs ipopt 2>/dev/null)
# Open MPI (Debian libopenmpi-dev, pkg-config ompi-c): when it is found
# the program is built with -DOPTLAB_MPI and linked with it, so that
# `mpirun -np N ./optlab script.lua` splits every bulk operation over the
# ranks (lua/ltask.c, lua/tasks.lua); the plain build does not need it.
MPI_CFLAGS := $(shell $(PKG) --cflags ompi-c 2>/dev/null)
MPI_LIBS := $(shell $(PKG) --libs ompi-c 2>/dev/null)
BENCHES  = $(filter-out tests/bench/ipopt,$(patsubst %.c,%,$(wildcard tests/bench/*.c))) \
           $(if $(IPOPT_LIBS),tests/bench/ipopt)

all: optlab

# -- layers -------------------------------------------------------------------
$(CORE_O): CFLAGS += $(LA_CFLAGS)
$(LUA_O):  CFLAGS += $(LA_CFLAGS) $(LUA_CFLAGS) -Ilua
$(REPL_O): CFLAGS += $(LA_CFLAGS) $(LUA_CFLAGS) $(UI_CFLAGS) -Ilua
lua/ltask.o: CFLAGS += $(if $(MPI_LIBS),-DOPTLAB_MPI $(MPI_CFLAGS))
lua/lfigure.o: CFLAGS += $(if $(FIG_LIBS),-DOPTLAB_FIGURES $(FIG_CFLAGS))

core/liboptlab.a: $(CORE_O)
	rm -f $@
	$(AR) rcs $@ $(CORE_O)

# The pure-Lua part of the library is compiled into the binary as
# bytecode, made by a build tool linked with the same liblua (so the format
# is the one the program loads; plain flags: it is not part of optlab).
lua/embed/luadump: lua/embed/luadump.c
	$(CC) -std=c11 -O1 $(WARN) $(LUA_CFLAGS) -o $@ $< $(LUA_LIBS)
lua/lualib.inc: $(LUA_LIB) lua/embed/luadump
	lua/embed/luadump $(LUA_LIB) > $@.tmp && mv $@.tmp $@
lua/lembed.o: lua/lualib.inc

# BLAS and LAPACK are not linked: repl/lazyla.c loads them on first use
# (start-up without them is ~3 ms shorter); nor is Open MPI: lua/lazympi.c
# loads it when the process is a rank (~0.8 ms).  Both by the sonames of
# the libraries LA_LIBS and MPI_LIBS name, read from a probe linked with
# them: $(call sonames,LIBS) writes them to $@ as C string initialisers.
sonames = printf 'int main(void) { return 0; }\n' > $@.c && \
  $(CC) -o $@.bin $@.c -Wl,--no-as-needed $(1) && \
  readelf -d $@.bin | sed -n 's/.*(NEEDED).*\[\(.*\)\]/  "\1",/p' \
  | grep -v '"lib[cm]\.so' > $@.tmp; rm -f $@.c $@.bin; \
  test -s $@.tmp && mv $@.tmp $@
repl/lalibs.inc: Makefile
	$(call sonames,$(LA_LIBS))
repl/lazyla.o: repl/lalibs.inc
lua/mpilibs.inc: Makefile
	$(if $(MPI_LIBS),$(call sonames,$(MPI_LIBS)),: > $@)
lua/lazympi.o: lua/mpilibs.inc lua/lazympi.h
lua/lazympi.o: CFLAGS += $(if $(MPI_LIBS),-DOPTLAB_MPI $(MPI_CFLAGS))

optlab: $(REPL_O) $(LUA_O) core/liboptlab.a
	$(CC) $(CFLAGS) -o $@ $(REPL_O) $(LUA_O) core/liboptlab.a \
	  $(LUA_LIBS) $(UI_LIBS) -lm -ldl -lpthread $(LDFLAGS)

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
tests/lib/olt.o $(CTESTS): $(CORE_H)

# -- set-up -------------------------------------------------------------------
# Install whatever Debian packages are missing (apt-get; sudo when not root).
deps:
	@missing=""; \
	for m in $(PKGMODS); do $(PKG) --exists $$m 2>/dev/null || missing="$$m"; done; \
	for c in prove tmux groff rsvg-convert pdftotext; do command -v $$c >/dev/null || missing="$$c"; done; \
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
	prove tests/mpi/*.t
	$(MAKE) mancheck

lint:
	@test "$(sort $(LUA_LIB))" = "$(sort $(wildcard lua/*.lua))" \
	  || { echo "lint: LUA_LIB does not list every lua/*.lua"; exit 1; }
	@! grep -nE '#include *[<"](lua|lauxlib|lualib|n?curses|readline)' \
	  $(CORE_SRC) $(CORE_H) || { echo "lint: core/ includes Lua/curses/readline"; exit 1; }
	@! grep -nE '(^|[^a-z_])(printf|fprintf|puts|putchar|perror|exit|abort) *\(' \
	  $(CORE_SRC) | grep -vE 's(n)?printf' | grep . || { echo "lint: core/ prints or exits"; exit 1; }
	@! grep -nE '#include *[<"](n?curses|readline)' lua/*.[ch] \
	  || { echo "lint: lua/ includes curses/readline"; exit 1; }
	@! grep -nE '(\<p|->p)->($(PFIELDS))\>([.][a-z_]+|\[[^]]*\])* *([-+*/|&]?=[^=]|\+\+|--)' lua/*.c \
	  || { echo "lint: lua/ writes an ol_problem field (use the core's ol_problem_set_*)"; exit 1; }
	@! grep -nE '(memcpy|memset|memmove|snprintf|strcpy|free) *\( *&?(\<p|[a-z]+->p)->($(PFIELDS))\>' lua/*.c \
	  || { echo "lint: lua/ writes into an ol_problem field (use the core's ol_problem_set_*)"; exit 1; }
	@! grep -n '#include *"runpriv\.h"' core/oracle.c core/oracle.h core/method.c core/problem.c \
	  || { echo "lint: the oracle layer and the problem read the run's private fields"; exit 1; }
	@! grep -nE '^[a-z].*\<olua_($(LUTIL)) \(' $$(ls lua/*.c | grep -v '^lua/lutil\.c$$') \
	  || { echo "lint: a shared binding helper outside lua/lutil.c"; exit 1; }
	@! grep -nE '(static [a-z ]*\<now *\(|#define now\>)' $(CORE_SRC) lua/*.c repl/*.c \
	  || { echo "lint: a local clock (use ol_now)"; exit 1; }
	@awk '/const (ol_method_type|ol_problem_type|ol_metric_type|pn_kind|ol_family) [A-Za-z_0-9]+ *= *\{/ { at = FNR; \
	  if ($$0 !~ /\{ *$$/ || (getline l) <= 0 || l !~ /^[ \t]*\./) { \
	  print FILENAME ":" at ": " $$0; bad = 1 } } \
	  /const ol_family [A-Za-z_0-9]+\[[A-Z_]*\] *= *\{/ { at = FNR; \
	  while ((getline l) > 0 && l ~ /^[ \t]*(\/\*|\*\*|$$)/) {} \
	  if (l !~ /^[ \t]*\[[A-Z_]+\] *= *\{ *$$/) { \
	  print FILENAME ":" at ": " $$0; bad = 1 } } END { exit bad }' \
	  $(CORE_SRC) $(CORE_H) tests/c/*.c \
	  || { echo "lint: a method, problem, metric, panel or family table not written with designated initialisers (.name = ..., core/README)"; exit 1; }
	@echo "lint: layer rules hold"

# The binding's shared helpers, defined in lua/lutil.c only.
LUTIL = pushshort|choicerror|unknownkey|checkfilename|checkarray|checkseq|readparam|pushinfo|fmtparam|unknownparam|pushvec|msghandler|wopen|wwrite|wclose|wcommit|wdiscard|writefile|writefile_lua

# The fields of struct ol_problem (core/problem.h), which only the core
# writes: the binding completes a problem through ol_problem_set_*.
PFIELDS = type|name|kind|n|fdf|hess|gsep|ud|free_ud|fd_grad|set|noise|x0|xstar|fstar|mean|cov|rows|cols|payoff|nsum|fdfi|gsumi|quadratic|l1|mrows|mcols|mblocks|desc|xform|frozen|con

# Issue 23's plug-in contract, shown: tests/extend/run.sh adds an
# optimizer, a sampler, a game dynamic, a problem, a metric and a panel
# kind (tests/extend/) to a scratch copy of the tree, each one new file
# and one list line (a metric: its id line, table entry and function),
# builds it, checks each and runs the registry sweep there.  TAP; the
# tree itself is left as it was.  About a minute.
extend: deps
	sh tests/extend/run.sh

mancheck:
	@out=$$(groff -man -ww -z -rCHECKSTYLE=3 man/optlab.1 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; \
	for f in scripts/*.lua; do b=$${f#scripts/}; \
	  grep -q "$$b" man/optlab.1 || { echo "man: $$f is not in the list" \
	    "of demos (section EXAMPLES)"; exit 1; }; done; \
	echo "man: optlab.1 lints clean and names every demo in scripts/"

# AddressSanitizer + UBSan over the whole suite, in a throw-away build;
# fontconfig's process-long caches (PNG and PDF figures) are not leaks
# (tests/lib/lsan.supp).
SANTREE  = $(SCRATCH)/sanitize
sanitize: deps
	$(call copytree,$(SANTREE))
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lib/lsan.supp:print_suppressions=0 \
	$(MAKE) -C $(SANTREE) check OPT="-O1 -g -fno-omit-frame-pointer" \
	  MYCFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  MYLDFLAGS="-fsanitize=address,undefined"
	rm -rf $(SANTREE)

# -- builds in a scratch copy of the tree ---------------------------------------
# sanitize, valgrind and fuzz build in their own copy of the working tree under
# $(SCRATCH)/ (uncommitted edits included; .git, $(SCRATCH) and every object
# left out), so their objects never mix with `make all`'s and the tree's own
# build is left as it was.
SCRATCH  = .build
copytree = rm -rf $(1) && mkdir -p $(1) && \
  tar -cf - --exclude=./.git --exclude=./$(SCRATCH) . | tar -xf - -C $(1) && \
  $(MAKE) -s -C $(1) clean

# Install those of the Debian packages $(1) that are missing (as deps).
needdebs = missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' \
  || missing="$$missing $$p"; done; \
  if [ -n "$$missing" ]; then echo "$@: installing Debian packages$$missing"; \
  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
  $$SUDO apt-get install -y -qq $$missing >/dev/null; fi

# The C tests and the batch Lua tests under valgrind's memcheck, built for
# the baseline architecture (ARCH=): valgrind cannot decode the AVX-512
# that -march=native emits on some machines (SIGILL).  Slow: ~15 min.
VGTREE   = $(SCRATCH)/valgrind
VGRIND   = valgrind -q --error-exitcode=9 --leak-check=full \
           --suppressions=$(CURDIR)/tests/lib/valgrind.supp
valgrind: deps
	@$(call needdebs,valgrind)
	$(call copytree,$(VGTREE))
	$(MAKE) -C $(VGTREE) ARCH= all $(CTESTS)
	cd $(VGTREE) && for t in tests/c/*.t; do echo "valgrind: $$t"; \
	  OPTLAB_QUICK=1 $(VGRIND) $$t >/dev/null \
	  || { echo "valgrind: $$t failed"; exit 1; }; done
	cd $(VGTREE) && for t in tests/lua/*.lua; do echo "valgrind: $$t"; \
	  $(VGRIND) ./optlab $$t >/dev/null \
	  || { echo "valgrind: $$t failed"; exit 1; }; done
	rm -rf $(VGTREE)
	@echo "valgrind: clean"

# libFuzzer on tests/fuzz/fuzz.c: grammar-built Lua statements over the
# whole API, in-process, under ASan and UBSan (clang-14), for FUZZ_SECONDS.
# The core and binding are built with clang in $(FZ)/tree; found inputs
# go to $(FZ)/corpus (kept between runs, beside the seeds in
# tests/fuzz/corpus), crashes, leaks and timeouts to $(FZ)/crashes, and
# the target fails on the first one.  FUZZ_FLAGS adds libFuzzer flags.
# The mutation seed is fixed (FUZZ_SEED, printed by libFuzzer as "Seed:"),
# so CI's slice from a clean clone retraces the same inputs; explore with
# another, e.g. make fuzz FUZZ_SEED=$$RANDOM FUZZ_SECONDS=3600.
FZ          = $(SCRATCH)/fuzz
FZTREE      = $(FZ)/tree
FUZZ_CC     = clang-14
FUZZ_SECONDS= 60
FUZZ_SEED   = 1
FUZZ_FLAGS  =
FUZZ_SAN    = -fsanitize=address,undefined -fno-sanitize-recover=undefined
# No comparison tracing: the grammar's choices are made in gen.lua (Lua's
# VM is not instrumented), so the core's numeric comparisons guide nothing
# and cost ~20% of the inputs a run reaches.
FUZZ_COV    = -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
FUZZ_OPT    = -O1 -g -fno-omit-frame-pointer
# The build runs in a make started after deps, so that LUA_CFLAGS and the
# other flags read at start see packages deps has just installed.
# fuzz-build builds the fuzzer alone (tests/fuzz/long.sh starts from it).
fuzz: deps
	@$(call needdebs,clang-14 libclang-rt-14-dev)
	$(MAKE) fuzzrun
fuzz-build: deps
	@$(call needdebs,clang-14 libclang-rt-14-dev)
	$(MAKE) fuzzbin
fuzzrun: fuzzbin
	mkdir -p $(FZ)/corpus $(FZ)/crashes $(FZ)/work
	OPENBLAS_NUM_THREADS=1 OPTLAB_FUZZ_DIR=$(CURDIR)/$(FZ)/work $(FZ)/fuzz \
	  -seed=$(FUZZ_SEED) -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	  -rss_limit_mb=2048 \
	  -max_len=1024 -close_fd_mask=3 -print_final_stats=1 \
	  -artifact_prefix=$(CURDIR)/$(FZ)/crashes/ $(FUZZ_FLAGS) \
	  $(CURDIR)/$(FZ)/corpus $(CURDIR)/tests/fuzz/corpus \
	|| { echo "fuzz: failed, input in $(FZ)/crashes/; see its statements" \
	  "with OPTLAB_FUZZ_SHOW=1 $(FZ)/fuzz <input>"; exit 1; }
	@echo "fuzz: no crash in $(FUZZ_SECONDS) s"
fuzzbin:
	$(call copytree,$(FZTREE))
	$(MAKE) -C $(FZTREE) CC=$(FUZZ_CC) ARCH= STRICT= OPT="$(FUZZ_OPT)" \
	  MYCFLAGS="$(FUZZ_COV) $(FUZZ_SAN)" MPI_LIBS= MPI_CFLAGS= \
	  FIG_LIBS= FIG_CFLAGS= \
	  core/liboptlab.a $(LUA_O)
	od -An -v -tx1 tests/fuzz/gen.lua \
	  | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g' > $(FZ)/gen.inc
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(FUZZ_OPT) $(WARN) \
	  -fsanitize=fuzzer -fno-sanitize-coverage=trace-cmp $(FUZZ_SAN) -I$(FZ) -I$(FZTREE)/core -I$(FZTREE)/lua \
	  $(LA_CFLAGS) $(LUA_CFLAGS) -o $(FZ)/fuzz $(FZTREE)/tests/fuzz/fuzz.c \
	  $(addprefix $(FZTREE)/,$(LUA_O)) $(FZTREE)/core/liboptlab.a \
	  $(LUA_LIBS) $(LA_LIBS)

# -- benchmarks -----------------------------------------------------------------
tests/bench/%: tests/bench/%.c core/liboptlab.a
	$(CC) $(CFLAGS) $(LA_CFLAGS) -o $@ $< core/liboptlab.a $(LA_LIBS) $(LDFLAGS)

tests/bench/ipopt: tests/bench/ipopt.c core/liboptlab.a
	$(CC) $(CFLAGS) $(LA_CFLAGS) $(IPOPT_CFLAGS) -o $@ $< core/liboptlab.a \
	  $(IPOPT_LIBS) $(LA_LIBS) $(LDFLAGS)

# The HS item needs IPOPT (coinor-libipopt-dev): installed here when
# missing, then built by a make that sees it (IPOPT_LIBS is read at start).
bench: all $(BENCHES)
	@$(call needdebs,coinor-libipopt-dev python3-scipy)
	$(MAKE) tests/bench/ipopt
	sh tests/bench/run.sh

clean:
	rm -f optlab core/liboptlab.a $(CORE_O) $(LUA_O) $(REPL_O) lua/lualib.inc \
	  repl/lalibs.inc lua/mpilibs.inc \
	  lua/embed/luadump \
	  tests/lib/tap.o tests/lib/olt.o tests/c/*.t $(BENCHES) tests/bench/ipopt

.PHONY: all run deps check lint mancheck sanitize valgrind fuzz fuzzrun fuzz-build fuzzbin extend bench \
        clean
