"""results.json (everything), results.csv (a row per unit), results.md (a
table with subjects as rows, then one per unit) and two PNG plots, from the
records bench/run measured. Figures over seeds are means."""
import csv
import json
import os
import statistics


def _pct(covered, total):
    return 100.0 * covered / total if total else None


def _mean(values):
    values = [v for v in values if v is not None]
    return statistics.mean(values) if values else None


def _fmt(v, digits=1):
    return "—" if v is None else f"{v:.{digits}f}"


def _seed_runs(entry):
    return [m for m in entry["mosaic"].values() if "error" not in m]


def _sum_cov(covs, key):
    covs = [c for c in covs if c]
    if not covs:
        return None
    return _pct(sum(c[key + "_covered"] for c in covs), sum(c[key] for c in covs))


def unit_rows(records):
    rows = []
    for r in records:
        for unit, e in r.get("units", {}).items():
            runs = _seed_runs(e)
            fuzz = {}
            for name, seeds in e["fuzzer"].items():
                fuzz[name] = _mean([_pct(s["coverage"]["branches_covered"], s["coverage"]["branches"])
                                    for s in seeds.values() if s.get("coverage")])
            best = max(fuzz.items(), key=lambda kv: kv[1] or -1) if fuzz else None
            stat = lambda k: _mean([m["stats"].get(k) for m in runs])
            rows.append({
                "subject": r["name"], "version": r.get("version", ""), "unit": unit,
                "own_branch": _sum_cov([e["own"]], "branches"), "own_line": _sum_cov([e["own"]], "lines"),
                "fuzzer": best[0] if best else "", "fuzzer_branch": best[1] if best else None,
                "mosaic_branch": _mean([_sum_cov([m["mosaic"]], "branches") for m in runs]),
                "mosaic_line": _mean([_sum_cov([m["mosaic"]], "lines") for m in runs]),
                "union_branch": _mean([_sum_cov([m["union"]], "branches") for m in runs]),
                "union_line": _mean([_sum_cov([m["union"]], "lines") for m in runs]),
                "executions_per_second": stat("executions_per_second"), "written": stat("written"),
                "compiled": stat("compiled"), "passed": stat("passed"), "flaky": stat("flaky"),
                "removed": stat("removed"), "failing": stat("failing"), "crash_sites": stat("crash_sites"),
                "wall_seconds": stat("wall_seconds"), "peak_mib": stat("peak_mib"), "seeds": len(runs),
                "errors": "; ".join(m["error"] for m in e["mosaic"].values() if "error" in m),
            })
    return rows


def subject_rows(records):
    rows = []
    for r in records:
        if "error" in r:
            rows.append({"subject": r["name"], "error": r["error"].splitlines()[0]})
            continue
        units = r["units"]
        seeds = sorted({s for e in units.values() for s in e["mosaic"]})
        def over_seeds(which, key):
            return _mean([_sum_cov([e["mosaic"][s].get(which) for e in units.values()
                                    if s in e["mosaic"] and "error" not in e["mosaic"][s]], key) for s in seeds])
        def stat_sum(k):
            return _mean([sum(e["mosaic"][s]["stats"].get(k) or 0 for e in units.values()
                              if s in e["mosaic"] and "error" not in e["mosaic"][s]) for s in seeds])
        fuzz_units = [u for u, e in units.items() if e["fuzzer"]]
        fuzz = None
        if fuzz_units:
            best = {}
            for name in {n for u in fuzz_units for n in units[u]["fuzzer"]}:
                best[name] = _mean([_sum_cov([units[u]["fuzzer"].get(name, {}).get(s, {}).get("coverage")
                                              for u in fuzz_units], "branches") for s in seeds])
            fuzz = max(best.values(), key=lambda v: v or -1)
        rows.append({
            "subject": r["name"], "version": r["version"], "units": len(units),
            "own_branch": _sum_cov([e["own"] for e in units.values()], "branches"),
            "own_line": _sum_cov([e["own"] for e in units.values()], "lines"),
            "fuzzer_branch": fuzz, "fuzzer_note": (", ".join(fuzz_units) if fuzz_units else r["no_fuzzer"]),
            "mosaic_branch": over_seeds("mosaic", "branches"), "mosaic_line": over_seeds("mosaic", "lines"),
            "union_branch": over_seeds("union", "branches"),
            "executions_per_second": _mean([u["executions_per_second"] for u in unit_rows([r])]),
            "written": stat_sum("written"), "compiled": stat_sum("compiled"), "passed": stat_sum("passed"),
            "flaky": stat_sum("flaky"), "removed": stat_sum("removed"), "failing": stat_sum("failing"),
            "crash_sites": stat_sum("crash_sites"), "wall_seconds": stat_sum("wall_seconds"),
            "peak_mib": _mean([u["peak_mib"] for u in unit_rows([r])]), "own_passed": r.get("own_passed"),
        })
    return rows


def write_markdown(path, subjects, units, budget, seeds):
    L = [f"mosaic generate at {budget} s per unit, seeds {', '.join(map(str, seeds))} (means over seeds); "
         f"libFuzzer on the package's own harness for the same {budget} s per harness; the library's own tests. "
         "Branch and line coverage by llvm-cov-19 (source-based) of the unit files, the union over every binary "
         "(bench/benchlib/llvmcov.py).", "",
         "| subject | version | units | own tests branch % | libFuzzer branch % | mosaic branch % | own + mosaic branch % "
         "| own line % | mosaic line % | execs/s | tests written / compiled / passed | flaky / removed "
         "| failing tests / crash sites | mosaic wall s | peak MiB |",
         "|" + "---|" * 15]
    for s in subjects:
        if "error" in s:
            L.append(f"| {s['subject']} | failed: {s['error']} |" + " |" * 13)
            continue
        fuzz = (f"{_fmt(s['fuzzer_branch'])} ({s['fuzzer_note']})" if s["fuzzer_branch"] is not None
                else s["fuzzer_note"])
        own = _fmt(s["own_branch"]) + ("" if s["own_passed"] else " (some own tests failed)")
        L.append(f"| {s['subject']} | {s['version']} | {s['units']} | {own} | {fuzz} | **{_fmt(s['mosaic_branch'])}** "
                 f"| {_fmt(s['union_branch'])} | {_fmt(s['own_line'])} | {_fmt(s['mosaic_line'])} "
                 f"| {_fmt(s['executions_per_second'], 0)} | {_fmt(s['written'], 0)} / {_fmt(s['compiled'], 0)} / "
                 f"{_fmt(s['passed'], 0)} | {_fmt(s['flaky'], 0)} / {_fmt(s['removed'], 0)} | {_fmt(s['failing'], 0)} / "
                 f"{_fmt(s['crash_sites'], 0)} | {_fmt(s['wall_seconds'], 0)} | {_fmt(s['peak_mib'], 0)} |")
    L += ["", "Per unit:", "",
          "| subject | unit | own branch % | libFuzzer branch % | mosaic branch % | own + mosaic % | own line % "
          "| mosaic line % | execs/s | written / compiled / passed | removed | failing / crash sites |",
          "|" + "---|" * 12]
    for u in units:
        fuzz = f"{_fmt(u['fuzzer_branch'])} ({u['fuzzer']})" if u["fuzzer"] else "—"
        err = f" ({u['errors']})" if u["errors"] else ""
        L.append(f"| {u['subject']} | {u['unit']}{err} | {_fmt(u['own_branch'])} | {fuzz} | {_fmt(u['mosaic_branch'])} "
                 f"| {_fmt(u['union_branch'])} | {_fmt(u['own_line'])} | {_fmt(u['mosaic_line'])} "
                 f"| {_fmt(u['executions_per_second'], 0)} | {_fmt(u['written'], 0)} / {_fmt(u['compiled'], 0)} / "
                 f"{_fmt(u['passed'], 0)} | {_fmt(u['removed'], 0)} | {_fmt(u['failing'], 0)} / {_fmt(u['crash_sites'], 0)} |")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def write_csv(path, units):
    if not units:
        return
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(units[0].keys()))
        w.writeheader()
        for u in units:
            w.writerow({k: (f"{v:.2f}" if isinstance(v, float) else v) for k, v in u.items()})


def write_plots(out, subjects, records):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib missing (python3-matplotlib): no plots"
    ok = [s for s in subjects if "error" not in s]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(ok)), 4))
    series = [("own tests", "own_branch"), ("libFuzzer", "fuzzer_branch"), ("mosaic", "mosaic_branch"),
              ("own + mosaic", "union_branch")]
    width = 0.2
    for i, (label, key) in enumerate(series):
        xs = [j + (i - 1.5) * width for j in range(len(ok))]
        ax.bar(xs, [s[key] or 0 for s in ok], width, label=label)
    ax.set_xticks(range(len(ok)), [s["subject"] for s in ok])
    ax.set_ylabel("branch coverage (llvm-cov), %")
    ax.set_ylim(0, 100)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "coverage.png"), dpi=110)
    plt.close(fig)

    pairs = []
    for r in records:
        for unit, e in r.get("units", {}).items():
            runs = _seed_runs(e)
            if e["fuzzer"] and runs:
                pairs.append((r["name"], unit, e, runs))
    if not pairs:
        return None
    fig, axes = plt.subplots(1, len(pairs), figsize=(4.5 * len(pairs), 3.5), squeeze=False)
    for ax, (name, unit, e, runs) in zip(axes[0], pairs):
        total = runs[0]["mosaic"]["branches"] if runs[0]["mosaic"] else 1
        ts = [p["seconds"] for p in runs[0]["over_time"]]
        ax.plot(ts, [_mean([100.0 * m["over_time"][k]["branches_covered"] / total for m in runs])
                     for k in range(len(ts))], marker="o", label="mosaic")
        for fname, seeds in e["fuzzer"].items():
            seeds = [s for s in seeds.values() if s.get("over_time")]
            if not seeds:
                continue
            ftotal = seeds[0]["coverage"]["branches"] or 1
            fts = [p["seconds"] for p in seeds[0]["over_time"]]
            ax.plot(fts, [_mean([100.0 * s["over_time"][k]["branches_covered"] / ftotal for s in seeds])
                          for k in range(len(fts))], marker="s", label=f"libFuzzer ({fname})")
        ax.set_title(f"{name}: {unit}", fontsize=9)
        ax.set_xlabel("seconds")
        ax.set_ylabel("branch coverage (llvm-cov), %")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "over-time.png"), dpi=110)
    plt.close(fig)
    return None


def write_all(out, records, budget, seeds):
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"budget": budget, "seeds": seeds, "subjects": records}, f, indent=1)
    units = unit_rows(records)
    subjects = subject_rows(records)
    write_markdown(os.path.join(out, "results.md"), subjects, units, budget, seeds)
    write_csv(os.path.join(out, "results.csv"), units)
    return write_plots(out, subjects, records)
