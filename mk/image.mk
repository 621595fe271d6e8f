# image.mk: the container image (Dockerfile) built and tried (scripts/image-test.sh): a
# debian:bookworm-slim base made by mmdebstrap from Debian's packages, the image built by
# buildah (chroot isolation, vfs storage) on it, run on a throwaway PostgreSQL cluster, and
# /healthz, the page, a game with a move and board.png checked; everything removed after.
# Not in make test: it fetches Debian's packages and takes minutes (about 20 on 2 busy
# cores). Needs root, buildah and mmdebstrap (apt-get install buildah mmdebstrap).
#
#   make test-image   IMAGE_MIRROR=http://... for another Debian mirror
.PHONY: test-image
test-image:
	scripts/image-test.sh
