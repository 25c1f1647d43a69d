#!/usr/bin/env python3
"""Assertions and statements per test of a written GoogleTest suite (regression tests only)."""
import glob, re, sys
def count(folder):
    tests = asserts = stmts = 0
    for f in glob.glob(folder + "/*_test*.cpp"):
        if "failing" in f:
            continue
        body = None
        for line in open(f, errors="replace"):
            if re.match(r"(TEST|TEST_F)\(", line):
                tests += 1; body = True; continue
            if body and line.startswith("}"):
                body = None; continue
            if body:
                s = line.strip()
                if not s or s.startswith("//"):
                    continue
                if re.match(r"(EXPECT|ASSERT)_", s):
                    asserts += 1
                elif s.endswith(";"):
                    stmts += 1
    return tests, asserts, stmts
for folder in sys.argv[1:]:
    t, a, s = count(folder)
    print(f"{folder}: {t} tests, {a / max(t, 1):.2f} assertions and {s / max(t, 1):.2f} statements a test")
