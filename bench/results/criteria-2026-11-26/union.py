#!/usr/bin/env python3
"""Mutation score of two suites together: a sampled mutant is killed when either suite kills it
(both `mosaic mutate --json` reports over the same sampled mutants: same unit, --mutants, --seed)."""
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fa = {m["id"]: m["fate"] for m in a["mutants"]}
fb = {m["id"]: m["fate"] for m in b["mutants"]}
assert fa.keys() == fb.keys(), "not the same sampled mutants"
killed = sum(1 for k in fa if "killed" in (fa[k], fb[k]))
print(f"{killed} of {len(fa)} killed ({100.0 * killed / len(fa):.1f}%)")
