#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are missing.
# As root it runs apt-get; otherwise it prints the exact command to run and fails.
set -euo pipefail
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
    # A tool installed outside apt (e.g. npm bundled with a NodeSource nodejs, which
    # conflicts with Debian's npm package) counts as present.
    case "$p" in npm|nodejs|node|jq|curl|wrk) command -v "${p/nodejs/node}" >/dev/null 2>&1 && continue ;; esac
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
