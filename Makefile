# Builds of Tetrad. `make` (or `make native`) builds for the CPU it runs on,
# the fastest; the portable targets build for a CPU level and run anywhere
# that level is (a binary started on an older CPU says so and exits 3).
#
#   make native      -C target-cpu=native        -> tetrad (this machine)
#   make x86-64      baseline x86-64 (SSE2)      -> tetrad-x86-64
#   make x86-64-v2   SSE4.2, POPCNT              -> tetrad-x86-64-v2
#   make x86-64-v3   AVX2, BMI2 (Haswell, Zen)   -> tetrad-x86-64-v3
#   make x86-64-v4   AVX-512 (Skylake-X, Zen 4)  -> tetrad-x86-64-v4
#   make openbench EXE=path                      (OpenBench: native build to EXE)
#
# Without BMI2 the slider tables use magic multiplication (PEXT is used only
# where it is fast); the CCR->bitboard and network kernels use AVX-512, AVX2
# or the portable `wide` versions, whichever the level has.
EXE ?= tetrad
ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
endif

LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4

# FEATURES=tune builds the SPSA build (every search number a UCI option); an
# OpenBench SPSA branch sets `FEATURES ?= tune` here, as its workers run plain `make EXE=...`.
FEATURES ?=
CARGO_FEATURES := $(if $(FEATURES),--features $(FEATURES),)

native:
	cargo build --release $(CARGO_FEATURES)
	cp target/release/tetrad$(SUFFIX) $(EXE)$(SUFFIX)

$(LEVELS):
	RUSTFLAGS="-C target-cpu=$@" cargo build --release --target-dir target/$@
	cp target/$@/release/tetrad$(SUFFIX) tetrad-$@$(SUFFIX)

openbench:
	cargo rustc --release --bin tetrad $(CARGO_FEATURES) -- -C target-cpu=native --emit link=$(EXE)$(SUFFIX)

release: native

test:
	cargo test --release

.PHONY: native openbench release test $(LEVELS)
