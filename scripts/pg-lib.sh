# pg-lib.sh: what the scripts that run a throwaway PostgreSQL share (sourced, not run):
# where the server's binaries are, and as whom the cluster runs and where it may live.

# Sets bindir to the newest /usr/lib/postgresql/*/bin, else initdb's folder on PATH; exits
# with "<$1>: PostgreSQL server binaries not found ..." when neither has initdb.
pg_find_bindir() {
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
        bindir=$(dirname "$(command -v initdb || echo /nonexistent/initdb)")
    fi
    [ -x "$bindir/initdb" ] || {
        echo "$1: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
        exit 1
    }
}

# Sets as_pg (the command prefix that runs as the cluster's owner) and owner. Run as root,
# the server runs as postgres, which must reach the cluster's folder $dir: if its parent is
# not traversable by postgres (a checkout under /root, say), dir becomes
# /tmp/<$1>-<hash of the folder asked for> instead (one per folder: make test-itest-all runs
# three clusters of one checkout at once).
pg_owner_and_dir() {
    as_pg=()
    owner=$(id -un)
    if [ "$(id -u)" -eq 0 ]; then
        as_pg=(runuser -u postgres --)
        owner=postgres
        if ! runuser -u postgres -- test -x "$(dirname "$dir")"; then
            dir=/tmp/$1-$(echo -n "$dir" | sha256sum | cut -c1-12)
        fi
    fi
}

# Prints the PID in DATA/postmaster.pid if that process still runs in DATA (a PostgreSQL
# process works in its data folder), else nothing. A postmaster killed with -9 leaves its
# pidfile; by the time it is read again (pid_max is 32768 on the machines we run on) the PID
# may be another process's, which must never be signalled.
pg_live_postmaster() {
    local pm
    pm=$(head -n 1 "$1/postmaster.pid" 2>/dev/null || true)
    if [ -n "$pm" ] && [ "$(readlink "/proc/$pm/cwd" 2>/dev/null)" = "$(readlink -f "$1")" ]; then
        echo "$pm"
    fi
}
