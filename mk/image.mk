# image.mk: the container image (Dockerfile) built and tried (scripts/image-test.sh): a
# debian:bookworm-slim base made by mmdebstrap from Debian's packages, the image built by
# buildah (chroot isolation, vfs storage) on it, run on a throwaway PostgreSQL cluster, and
# /healthz, the page, a game with a move and board.png checked; everything removed after.
# Not in make test: it fetches Debian's packages and takes minutes (issue 30 measured 26 s
# for the base and 56 s for the image; on 2 cores shared by eight agents, a load of 25,
# 20 and 23 minutes). Needs root, buildah and mmdebstrap (apt-get install buildah mmdebstrap).
#
#   make test-image   IMAGE_MIRROR=http://... for another Debian mirror
.PHONY: test-image
test-image:
	scripts/image-test.sh
