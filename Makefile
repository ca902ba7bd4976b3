# Builds of Tetrad. `make` (or `make native`) builds for the CPU it runs on,
# the fastest; the portable targets build for a CPU level and run anywhere
# that level is (a binary started on an older CPU says so and exits 3).
#
#   make native      -C target-cpu=native        -> tetrad (this machine;
#                    without AVX-512 on Skylake-SP/Cascade Lake, see AVX512)
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

# Intel family 6 model 85 (Skylake-SP/X, Cascade Lake, Cooper Lake) lowers the
# core's clock while 512-bit instructions run, and LLVM emits them all over an
# AVX-512 build (not only in our 512-bit kernels); built without AVX-512,
# `tetrad bench` took 0.925x the time on a Cascade Lake Xeon. So `native` and
# `openbench` leave AVX-512 out there. AVX512=on|off overrides the guess.
AVX512 ?= $(shell (awk -F': *' '/^vendor_id/ {v = $$2} /^cpu family/ {f = $$2} \
	/^model[ \t]*:/ {m = $$2} END {print (v == "GenuineIntel" && f == 6 && m == 85) ? "off" : "on"}' \
	/proc/cpuinfo) 2>/dev/null)
# Without AVX-512 the build keeps its own folder, so `cargo build` (which
# targets native, .cargo/config.toml) and `make` do not rebuild each other's.
NO_AVX512 := $(filter off,$(AVX512))
NATIVE_ENV := $(if $(NO_AVX512),RUSTFLAGS="-C target-cpu=native -C target-feature=-avx512f",)
NATIVE_DIR := $(if $(NO_AVX512),target/native-no-avx512,target)

# FEATURES=tune builds the SPSA build (every search number a UCI option); an
# OpenBench SPSA branch sets `FEATURES ?= tune` here, as its workers run plain `make EXE=...`.
FEATURES ?=
CARGO_FEATURES := $(if $(FEATURES),--features $(FEATURES),)

native:
	$(NATIVE_ENV) cargo build --release --target-dir $(NATIVE_DIR) $(CARGO_FEATURES)
	cp $(NATIVE_DIR)/release/tetrad$(SUFFIX) $(EXE)$(SUFFIX)

$(LEVELS):
	RUSTFLAGS="-C target-cpu=$@" cargo build --release --target-dir target/$@
	cp target/$@/release/tetrad$(SUFFIX) tetrad-$@$(SUFFIX)

openbench:
	$(NATIVE_ENV) cargo rustc --release --target-dir $(NATIVE_DIR) --bin tetrad $(CARGO_FEATURES) -- --emit link=$(EXE)$(SUFFIX)

release: native

test:
	cargo test --release

.PHONY: native openbench release test $(LEVELS)
