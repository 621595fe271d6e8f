# list.awk: the table of integration tests, from the ITEST lines of the files it reads
# (mk/api.mk gives it tests/itest/t_*.c in name order): a prototype per test, then
# itest_tests[] in the order read. An ITEST line is `ITEST(fn, "title")` (or ITEST_SOLO, a
# test that may run beside no other), the title one string literal that clang-format may
# have split over lines ("a "\n "b"); see tests.h.
#
#   awk -f tests/itest/list.awk tests/itest/t_*.c > build/gen/itest_list.c
/^ITEST(_SOLO)?\(/ {
    text = $0
    solo = $0 ~ /^ITEST_SOLO/
    while (text !~ /\)[ \t]*$/ && (getline line) > 0) text = text " " line
    sub(/^ITEST(_SOLO)?\([ \t]*/, "", text)
    sub(/\)[ \t]*$/, "", text)
    comma = index(text, ",")
    fn = substr(text, 1, comma - 1)
    title = substr(text, comma + 1)
    gsub(/^[ \t]+|[ \t]+$/, "", title)
    gsub(/"[ \t]+"/, "\" \"", title)
    if (fn !~ /^[A-Za-z_][A-Za-z0-9_]*$/ || title !~ /^".*"$/) {
        printf "%s:%d: not ITEST(name, \"title\")\n", FILENAME, FNR > "/dev/stderr"
        bad = 1
        exit 1
    }
    if (fn in seen) {
        printf "%s:%d: %s is an ITEST twice\n", FILENAME, FNR, fn > "/dev/stderr"
        bad = 1
        exit 1
    }
    seen[fn] = 1
    n++
    fns[n] = fn
    titles[n] = title
    files[n] = FILENAME
    solos[n] = solo
}
END {
    if (bad) exit 1
    print "/* itest_list.c: made by tests/itest/list.awk from the ITEST lines; do not edit. */"
    print "#include \"tests.h\""
    print ""
    for (i = 1; i <= n; i++) printf "void %s(struct server *srv);\n", fns[i]
    print ""
    print "const struct itest itest_tests[] = {"
    for (i = 1; i <= n; i++) printf "    {%s, %s, %d}, /* %s */\n", titles[i], fns[i], solos[i], files[i]
    print "};"
    print "const size_t itest_ntests = sizeof itest_tests / sizeof itest_tests[0];"
}
