# OpenBench and other tools build Tetrad with `make EXE=path`.
EXE ?= tetrad
ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
endif

openbench:
	cargo rustc --release --bin tetrad -- -C target-cpu=native --emit link=$(EXE)$(SUFFIX)

release:
	cargo build --release

test:
	cargo test --release

.PHONY: openbench release test
