# tilehall: a Carcassonne-family rules server. `make run` and `make test` do all the set-up.
# Each part of the build lives in its own file under mk/; this file ties them together.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2
CSTD     := -std=c11 -D_DEFAULT_SOURCE
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all run test bench lint format clean deps
all:

include mk/deps.mk
include mk/core.mk
-include mk/api.mk
-include mk/spec.mk

clean:
	rm -rf $(BUILD)
