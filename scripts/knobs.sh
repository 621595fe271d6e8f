# knobs.sh: the settings of a script from its environment (sourced, not run; bash).
# shellcheck shell=bash

# knobs PREFIX NAME=DEFAULT...: sets each shell variable NAME to the environment's
# PREFIX_NAME (NAME in capitals) when that is set and not empty, else to DEFAULT:
# `knobs HA rounds=1 bound_ms=3000` reads HA_ROUNDS and HA_BOUND_MS.
knobs() {
    local prefix=$1 pair name var
    shift
    for pair in "$@"; do
        name=${pair%%=*}
        var=${prefix}_${name^^}
        printf -v "$name" '%s' "${!var:-${pair#*=}}"
    done
}
