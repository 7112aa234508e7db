#!/usr/bin/env python3
"""Results of bench/side-by-side.sh.

  side-by-side-report.py merge RESULTS.jsonl RAW.jsonl COMMAND STARTED LOAD_BEFORE LOAD_AFTER
      replaces in RESULTS the lines of every (workload, heap) pair RAW measured by RAW's lines, plus one "meta" line
      per pair (date, command, load average, machine).
  side-by-side-report.py merge-limits RESULTS.jsonl RAW.jsonl COMMAND STARTED
      for a --limits-only run: replaces PostgreSQL's own rate (pg_recvlogical, COPY) in RESULTS' limit lines of the
      same workload, heap and run by RAW's, keeps the rest, and adds a "meta_limits" line per pair saying when and how.
  side-by-side-report.py write RESULTS.jsonl docs/benchmarks.md
      rewrites the section "## Side by side ..." of the document (up to the next "## " heading) from RESULTS, and draws
      its chart (side-by-side.svg beside the document); the
      hand-written "## Side by side: analysis" section after it is left alone.
  side-by-side-report.py exactly-once RESULTS.jsonl SECTION.md
      writes the table of a --exactly-once run (our connector at-least-once against its exactly-once variants,
      issue 16) to SECTION.md, for bench/replace-doc-section.sh docs/benchmarks.md exactly-once-bench SECTION.md.
  side-by-side-report.py avro RESULTS.jsonl SECTION.md
      writes the tables of a --converter avro run (ours, Debezium and the Connect ceiling through Apicurio's Avro
      converter, issue 19) to SECTION.md, for bench/replace-doc-section.sh docs/benchmarks.md avro-bench SECTION.md.
"""
import json
import os
import platform
import statistics
import subprocess
import sys

# The Debezium version bench/debezium-plugin builds (its debezium.version property).
DEBEZIUM = "Debezium 3.7.1"
# Found by this prefix, so a section written for an earlier Debezium version is replaced, not duplicated.
HEADING_PREFIX = "## Side by side: our connector, Debezium"
HEADING = f"{HEADING_PREFIX} {DEBEZIUM.removeprefix('Debezium ')} and the limits"
ORDER = ["W1", "W2", "W3", "W4", "W5", "W6", "W7"]
WHAT = {
    "W1": "{n:,} inserts in one transaction",
    "W2": "{n:,} one-row transactions, 4 pgbench clients",
    "W3": "{n:,} updates in 1,000-row transactions",
    "W4": "one {n:,}-row transaction (logical_decoding_work_mem=64MB)",
    "W5": "snapshot of a {n:,}-row table",
    "W6": "incremental snapshot of a {n:,}-row table (Kafka signal, read-only)",
    "W7": "W6 of a {n:,}-row table while rows change, until its topic rebuilds the table",
}
READS_TABLE = ("W5", "W6", "W7")


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_gib = int(f.readline().split()[1]) / 2**20
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    return f"{os.cpu_count()} cores ({cpu}), {mem_gib:.0f} GiB RAM, {platform.system()} {platform.release()}; {java}"


def merge(results, raw, command, started, load_before, load_after):
    new = load(raw)
    pairs = {(r["workload"], r["heap"]) for r in new if "workload" in r}
    server = next((r["version"] for r in new if r.get("kind") == "server"), "?")
    kept = [r for r in load(results) if (r.get("workload"), r.get("heap")) not in pairs]
    mach = machine()
    metas = [{"kind": "meta", "workload": w, "heap": h, "started": started, "command": command,
              "load_before": load_before, "load_after": load_after, "machine": mach, "server": server}
             for (w, h) in sorted(pairs)]
    with open(results, "w") as f:
        for r in kept + metas + [r for r in new if "workload" in r]:
            f.write(json.dumps(r) + "\n")


PG_LIMIT_KEYS = ("recvlogical_s", "recvlogical_events_per_s", "copy_s", "copy_events_per_s")


def merge_limits(results, raw, command, started):
    new = {(r["workload"], r["heap"], r["run"]): r for r in load(raw) if r.get("kind") == "limit"}
    pairs = {(w, h) for (w, h, _) in new}
    rows = [r for r in load(results) if not (r.get("kind") == "meta_limits" and (r["workload"], r["heap"]) in pairs)]
    missing = set(new)
    for r in rows:
        key = (r.get("workload"), r.get("heap"), r.get("run"))
        if r.get("kind") == "limit" and key in new:
            for k in PG_LIMIT_KEYS:
                r.pop(k, None)
            r.update({k: v for k, v in new[key].items() if k in PG_LIMIT_KEYS})
            missing.discard(key)
    if missing:
        sys.exit(f"no limit line in {results} for {sorted(missing)}: run the whole pair instead")
    rows += [{"kind": "meta_limits", "workload": w, "heap": h, "started": started, "command": command,
              "machine": machine()} for (w, h) in sorted(pairs)]
    with open(results, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def med(xs):
    return statistics.median(xs) if xs else None


def span(xs, fmt):
    if not xs:
        return "–"
    if len(xs) == 1:
        return fmt(xs[0])
    return f"{fmt(med(xs))} [{fmt(min(xs))}–{fmt(max(xs))}]"


def rate(x):
    return f"{x:,.0f}"


def secs(x):
    return f"{x:,.1f}"


def mib(x):
    return f"{x / 1024:,.0f}"


def ratio(a, b):
    return f"{a / b:.2f}×" if a and b else "–"


def pairs_of(rows):
    """The (workload, heap) pairs that have legs, in the workloads' order, 2g first."""
    return sorted({(r["workload"], r["heap"]) for r in rows if r.get("kind") == "leg"},
                  key=lambda p: (ORDER.index(p[0]), p[1] != "2g"))


def of(legs, contender, key):
    return [r[key] for r in legs if r["contender"] == contender and r.get(key) is not None]


def per_run(legs, a, b):
    """a's events/s ÷ b's, per run in which both ran."""
    ratios = []
    for x in (r for r in legs if r["contender"] == a):
        y = next((y for y in legs if y["contender"] == b and y["run"] == x["run"]), None)
        if y:
            ratios.append(x["events_per_s"] / y["events_per_s"])
    return ratios


def runs_of(values):
    return f" ({', '.join(f'{v:.2f}' for v in values)})" if values else ""


def bound(legs, ceiling_key, events):
    """The most any connector could reach in the run: the data there at our first record, then the ceiling's rate."""
    first = med(of(legs, "ours", "first_record_s"))
    ceiling = med(of(legs, ceiling_key, "emission_events_per_s"))
    return events / (first + events / ceiling) if first is not None and ceiling else None


def runs_lines(rows, pairs):
    """The "Runs" list: per pair its meta line (date, command, load, machine) and any limits measured again."""
    metas = {(r["workload"], r["heap"]): r for r in rows if r.get("kind") == "meta"}
    limits_metas = {(r["workload"], r["heap"]): r for r in rows if r.get("kind") == "meta_limits"}
    out = ["Runs (date, exact command, load average 1/5/15 min before → after, machine):", ""]
    for (w, h) in pairs:
        m = metas.get((w, h))
        if m:
            out.append(f"* {w} at {h}: {m['started']}, `{m['command']}`, load {m['load_before']} → {m['load_after']}; "
                       f"{m['machine']}; {m['server'].split(' on ')[0]}.")
        ml = limits_metas.get((w, h))
        if ml:
            out.append(f"  PostgreSQL's own rate measured again {ml['started']}: `{ml['command']}`.")
    return out


CHART = "side-by-side.svg"
CONTENDERS = [("ours", "ours", "#1f77b4"), ("ours_direct", "ours, direct.encoding=json", "#17becf"),
              ("dbz", DEBEZIUM, "#d62728"), ("ceiling", "Connect ceiling", "#7f7f7f"),
              ("ceiling_direct", "Connect ceiling, direct bytes", "#bcbd22")]


def chart(rows, pairs, path):
    """An SVG bar chart: per (workload, heap) group, one bar per contender (median events/s, log scale), the
    PostgreSQL limit as a solid line and the producer's as a dashed one."""
    import math
    groups = []
    for (w, h) in pairs:
        legs = [r for r in rows if r.get("kind") == "leg" and r["workload"] == w and r["heap"] == h]
        lims = [r for r in rows if r.get("kind") == "limit" and r["workload"] == w and r["heap"] == h]
        bars = [(label, colour, med([r["events_per_s"] for r in legs if r["contender"] == key]))
                for key, label, colour in CONTENDERS]
        limit_key = "copy_events_per_s" if w in READS_TABLE else "recvlogical_events_per_s"
        pg = med([r[limit_key] for r in lims if limit_key in r])
        producer = med([r["producer_records_per_s"] for r in lims if "producer_records_per_s" in r])
        groups.append((f"{w} {h}", bars, pg, producer))
    low, high = 1_000, 2_000_000
    left, top, plot_h, bar_w, gap = 70, 30, 300, 14, 26
    width = left + len(groups) * (len(CONTENDERS) * bar_w + gap) + 20
    height = top + plot_h + 90

    def y(v):
        v = min(max(v, low), high)
        return top + plot_h - plot_h * (math.log10(v) - math.log10(low)) / (math.log10(high) - math.log10(low))

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">Side by side: events/s (log scale), bench/side-by-side.sh</text>']
    for tick in [1_000, 10_000, 100_000, 1_000_000]:
        svg.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - 10}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:,}</text>')
    x = left + gap / 2
    for name, bars, pg, producer in groups:
        group_w = len(CONTENDERS) * bar_w
        for i, (label, colour, value) in enumerate(bars):
            if value:
                svg.append(f'<rect x="{x + i * bar_w:.1f}" y="{y(value):.1f}" width="{bar_w - 2}" '
                           f'height="{top + plot_h - y(value):.1f}" fill="{colour}"><title>{label}: {value:,.0f}</title></rect>')
        if pg:
            svg.append(f'<line x1="{x - 3:.1f}" y1="{y(pg):.1f}" x2="{x + group_w + 1:.1f}" y2="{y(pg):.1f}" '
                       f'stroke="#2ca02c" stroke-width="2"><title>PostgreSQL: {pg:,.0f}</title></line>')
        if producer:
            svg.append(f'<line x1="{x - 3:.1f}" y1="{y(producer):.1f}" x2="{x + group_w + 1:.1f}" y2="{y(producer):.1f}" '
                       f'stroke="#ff7f0e" stroke-width="2" stroke-dasharray="4,3"><title>producer: {producer:,.0f}</title></line>')
        svg.append(f'<text x="{x + group_w / 2:.1f}" y="{top + plot_h + 14}" text-anchor="middle">{name}</text>')
        x += group_w + gap
    legend_y = top + plot_h + 36
    items = [(label, colour, "rect") for _, label, colour in CONTENDERS] + [
        ("PostgreSQL (pg_recvlogical / COPY)", "#2ca02c", "line"), ("Kafka producer", "#ff7f0e", "dash")]
    lx = left
    for label, colour, kind in items:
        if kind == "rect":
            svg.append(f'<rect x="{lx}" y="{legend_y - 9}" width="10" height="10" fill="{colour}"/>')
        else:
            dash = ' stroke-dasharray="4,3"' if kind == "dash" else ""
            svg.append(f'<line x1="{lx}" y1="{legend_y - 4}" x2="{lx + 14}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"{dash}/>')
        svg.append(f'<text x="{lx + 18}" y="{legend_y}">{label}</text>')
        lx += 24 + 6.5 * len(label)
        if lx > width - 150:
            lx, legend_y = left, legend_y + 16
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def write(results, doc):
    rows = load(results)
    pairs = pairs_of(rows)
    out = [HEADING, "",
           "Written by `bench/side-by-side.sh` from `bench/results/side-by-side.jsonl` (one line per measurement; the",
           "script replaces the lines of the workload/heap pairs it ran). The figures are **median [min–max] over the",
           "runs**; ratios divide medians, and the per-run ratio of paired legs is given where it matters.",
           "",
           "Setup, identical for both connectors: PostgreSQL 17 (throwaway cluster, `fsync=off`, `shared_buffers=512MB`,",
           "`logical_decoding_work_mem=64MB`, `max_wal_size=8GB`, autovacuum off), one KRaft broker (`kafka.Kafka`, 512 MB",
           "heap) and, for every leg, a fresh distributed Connect worker (`ConnectDistributed`, `-XX:+UseSerialGC`, heap",
           "as stated) in separate JVMs started by local-run's `KafkaServices`, JSON converter without schemas,",
           "`plugin.path` holding both our packaged plugin and Debezium's (`bench/debezium-plugin`). Each leg: fresh",
           "slot and topic prefix, publication `bench_pub FOR TABLE public.bench` (created beforehand, autocreate",
           "disabled for both), `table.include.list=public\\.bench`, `provide.transaction.metadata=false` for both",
           "(Debezium's default; ours defaults to true), `max.batch.size`/`max.queue.size` at both defaults (2048/8192),",
           "tombstones at both defaults (only W7 deletes), `snapshot.mode=initial` for W5 and `no_data` for the others;",
           "Debezium with `plugin.name=pgoutput`, ours otherwise at its defaults (protocol 4, streaming on). Legs",
           "alternate A/B between runs. Table `bench (id bigserial PRIMARY KEY, v text /* 96 chars */, n numeric,",
           "ts timestamptz, flag boolean)`, ~150-byte rows.",
           "",
           "* **events/s** = events ÷ (workload start → the topic's end offset reaches the expected count, polled every",
           "  100 ms from outside the worker). For W5 the start is the connector's registration (PUT), so the figure",
           "  includes task start, slot creation and snapshot export.",
           "* **commit → last**: from the workload's last COMMIT returning to the last record in Kafka.",
           "* **peak RSS**: `VmHWM` of the worker process at the end of the leg (includes the worker's own start).",
           "* **PG emission** (W1–W4): `pg_recvlogical` (pgoutput, same publication, `proto_version=4`, `streaming=on`)",
           "  into /dev/null on a fresh slot while the same workload runs again with no connector; time from workload",
           "  start until the walsender's `sent_lsn` reaches a flushed logical message written after the last commit.",
           "  Until 2026-12-06 the harness waited for `sent_lsn` to pass the message, which also waited for the next WAL",
           "  record of any kind (often the running-xacts record written every 15 s), so earlier figures are too low;",
           "  the lines under \"Runs\" say where they were measured again.",
           "  **COPY** (W5–W7): `psql -c \"COPY (SELECT id, v, n, ts, flag FROM bench) TO STDOUT\"` into /dev/null.",
           "* **W6** starts when the `execute-snapshot` message (key = the connector's topic prefix) is acknowledged by the",
           "  broker, on a connector streaming for 10 s (`signal.enabled.channels=kafka`, `read.only=true`, chunks of 1,024 rows",
           "  for both); it ends when the topic holds one record per row.",
           "* **W7** (issue 18) is W6 on a 1,000,000-row table while rows change: from 2 s before the signal, 100",
           "  transactions a second each update 6 rows, delete 2 and insert 2 (ids drawn uniformly from a fixed seed, the",
           "  same for every leg), until the topic holds snapshot reads of 95% of the rows. A consumer outside the worker",
           "  rebuilds the table from the topic as it fills (id → `v`, in topic order: reads, inserts and updates set a",
           "  row, deletes remove it); the leg ends when that table equals the database's after the changes, and stays",
           "  so for 5 s. A leg whose topic does not rebuild the table is listed as failed. The ceilings emit the",
           "  snapshot's rows while the same changes run and the same consumer reads their topic (they have no slot, so",
           "  the walsender's decoding of the changes is not part of their load); COPY as in W6. **first record** and",
           "  **emission** count the snapshot's reads.",
           "* **Connect ceiling** (issue 19): `bench/connect-ceiling`, a source connector on a fresh worker like the others",
           "  that reads nothing and emits the same number of records, our own (`op=r` records of the bench table built",
           "  once by our record builder, 4,096 distinct ones in turn, with an offset and, for W5 and W6, the headers of our",
           "  snapshot rows (`pg.snapshot`, `pg.lsn` and Debezium's context headers, since 2026-12-05; before, the first two",
           "  only, and W6 had W1's), for W1–W4 those of our streamed changes (`pg.*` and the context headers), as",
           "  fast as the worker takes them: what the worker, the JSON converter and the producer allow for exactly these",
           "  records. Ours ÷ ceiling is the share of it our connector reaches.",
           "* **Ours, direct.encoding=json** (issue 19): our connector writing JsonConverter's bytes itself, with",
           "  `ByteArrayConverter` as its key and value converters; it is not held to the JSON converter's ceiling.",
           "* **Ceiling, direct bytes**: the Connect ceiling's records with the key and value bytes of",
           "  `direct.encoding=json`, through `ByteArrayConverter`: what the worker and its producer allow for these",
           "  records without a converter, the ceiling of the direct encoding.",
           "* **first record**: from the leg's start to the first poll that saw a record in the topic; **emission**:",
           "  events ÷ (first record → last record), the rate at which the worker carried the records once there was",
           "  something to send.",
           "* **worker CPU**: user + system time of the worker process (`/proc/PID/stat`) from the leg's start to its last",
           "  record, ÷ events (since 2026-12-05).",
           "* **producer**: `org.apache.kafka.tools.ProducerPerformance` (kafka-tools 4.1.1), min(events, 1,000,000)",
           "  records of our records' average size (key + value), with the producer settings Connect forces on source",
           "  tasks (`acks=all`, `max.in.flight.requests.per.connection=1`, no idempotence).",
           ""]
    rates = ["**events/s**, median [min–max] over the runs:", "",
             f"| Workload | Heap | Runs | Ours | Ours, direct | {DEBEZIUM} | Connect ceiling | Ceiling, direct bytes | PG emission or COPY | Producer records/s (bytes) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ratios = ["**Ratios** (of medians; per run in brackets). *Emission* compares the rate from a leg's first record in",
              "Kafka to its last: for the ceilings their whole leg, for ours the part after PostgreSQL has delivered what",
              "may be sent (the commit of W1's one transaction, the first rows of a snapshot). *Bound* is the most any",
              "connector could reach in that run: the data is there when our first record was, and from then the worker",
              "carries it at the ceiling's rate (`events ÷ (first record + events ÷ ceiling emission)`, with the JSON",
              "ceiling for JSON and the direct one for direct bytes); bound ÷ Debezium below a goal's ratio puts that goal",
              "out of reach on this machine.", "",
              "| Workload | Heap | Ours ÷ Debezium | Direct ÷ Debezium | Ours ÷ ceiling, emission | Direct ÷ direct ceiling, emission | Ours ÷ PG | Direct ÷ PG | Bound ÷ Debezium, JSON / direct |",
              "|---|---|---|---|---|---|---|---|---|"]
    costs = ["**What each event cost**: the worker's CPU time (all its threads, the collector's too) from the leg's start",
             "to its last record, per event; the first record's arrival; commit → last; peak RSS.", "",
             "| Workload | Heap | Worker CPU µs/event: ours / direct / Debezium / ceiling / ceiling direct | First record s: ours / direct / Debezium | Commit → last s: ours / Debezium | Peak RSS MiB: ours / Debezium |",
             "|---|---|---|---|---|---|"]
    summary = {}

    def slash(values, fmt):
        return " / ".join(fmt(med(v)) if v else "–" for v in values)

    for (w, h) in pairs:
        legs = [r for r in rows if r.get("kind") == "leg" and r["workload"] == w and r["heap"] == h]
        lims = [r for r in rows if r.get("kind") == "limit" and r["workload"] == w and r["heap"] == h]
        o_rate, d_rate = of(legs, "ours", "events_per_s"), of(legs, "dbz", "events_per_s")
        x_rate, c_rate = of(legs, "ours_direct", "events_per_s"), of(legs, "ceiling", "events_per_s")
        cx_rate = of(legs, "ceiling_direct", "events_per_s")
        limit_key = "copy_events_per_s" if w in READS_TABLE else "recvlogical_events_per_s"
        pg = [r[limit_key] for r in lims if limit_key in r]
        prod = [r["producer_records_per_s"] for r in lims if "producer_records_per_s" in r]
        size = next((r["producer_record_bytes"] for r in lims if "producer_record_bytes" in r), None)
        runs = max([r["run"] for r in legs], default=0)
        events = legs[0]["events"] if legs else 0
        o_emit, x_emit = med(of(legs, "ours", "emission_events_per_s")), med(of(legs, "ours_direct", "emission_events_per_s"))
        c_emit, cx_emit = med(of(legs, "ceiling", "emission_events_per_s")), med(of(legs, "ceiling_direct", "emission_events_per_s"))
        json_bound, direct_bound = bound(legs, "ceiling", events), bound(legs, "ceiling_direct", events)
        od, xd = per_run(legs, "ours", "dbz"), per_run(legs, "ours_direct", "dbz")
        rates.append(f"| {w}: {WHAT[w].format(n=events)} | {h} | {runs} | {span(o_rate, rate)} | {span(x_rate, rate)} | "
                     f"{span(d_rate, rate)} | {span(c_rate, rate)} | {span(cx_rate, rate)} | "
                     f"{span(pg, rate)} ({'COPY' if w in READS_TABLE else 'pg_recvlogical'}) | "
                     f"{span(prod, rate)} ({size if size else '–'}) |")
        d = med(d_rate)
        ratios.append(f"| {w} | {h} | **{ratio(med(o_rate), d)}**{runs_of(od)} | {ratio(med(x_rate), d)}{runs_of(xd)} | "
                      f"{ratio(o_emit, c_emit)} | {ratio(x_emit, cx_emit)} | {ratio(med(o_rate), med(pg))} | "
                      f"{ratio(med(x_rate), med(pg))} | {ratio(json_bound, d)} / {ratio(direct_bound, d)} |")
        cpu = [of(legs, c, "worker_cpu_us_per_event") for c in ("ours", "ours_direct", "dbz", "ceiling", "ceiling_direct")]
        first = [of(legs, c, "first_record_s") for c in ("ours", "ours_direct", "dbz")]
        c2l = [of(legs, c, "commit_to_last_s") for c in ("ours", "dbz")]
        rss = [of(legs, c, "peak_rss_kib") for c in ("ours", "dbz")]
        costs.append(f"| {w} | {h} | {slash(cpu, lambda v: f'{v:.1f}')} | {slash(first, secs)} | {slash(c2l, secs)} | "
                     f"{slash(rss, mib)} |")
        summary[(w, h)] = dict(o=med(o_rate), d=d, c=med(c_rate), x=med(x_rate), pg=med(pg),
                               oc=med(c2l[0]), dc=med(c2l[1]), complete=len(o_rate) > 0, o_emit=o_emit, c_emit=c_emit,
                               x_emit=x_emit, cx_emit=cx_emit, json_bound=json_bound, direct_bound=direct_bound)
    out += rates + [""] + ratios + [""] + costs
    out += [""] + runs_lines(rows, pairs)
    failed = [r for r in rows if r.get("kind") == "leg_failed"]
    if failed:
        out += ["", "Legs whose topic did not rebuild the table (W7; no rate is given for them):", ""]
        out += [f"* {r['workload']} at {r['heap']}, run {r['run']}, {r['contender']}: {r['reason']}" for r in failed]
    out += ["", "Goals of issue 7 (and issue 5 for W5), from the medians above:", ""]

    def goal(text, pair, check):
        s = summary.get(pair)
        if not s or not s["complete"]:
            return f"* {text}: not measured yet."
        verdict, figure = check(s)
        return f"* {text}: {figure} — **{'met' if verdict else 'missed'}**."

    def times_debezium(text, pair, key, bound_key, factor):
        """A goal of `factor` × Debezium's events/s, with the bound of the run: missed, or out of reach here."""
        s = summary.get(pair)
        if not s or not s["complete"] or not s.get(key) or not s["d"]:
            return f"* {text}: not measured yet."
        figure = ratio(s[key], s["d"])
        if s[key] >= factor * s["d"]:
            return f"* {text}: {figure} — **met**."
        b = s.get(bound_key)
        if b and b < factor * s["d"]:
            return (f"* {text}: {figure} — **out of reach on this machine**: the bound of the run is {ratio(b, s['d'])} "
                    f"Debezium ({rate(b)} events/s).")
        return f"* {text}: {figure} — **missed**" + (f" (bound of the run {ratio(b, s['d'])})." if b else ".")

    out.append(times_debezium("W1 ≥ 3× Debezium", ("W1", "2g"), "o", "json_bound", 3))
    out.append(times_debezium("W3 ≥ 3× Debezium", ("W3", "2g"), "o", "json_bound", 3))
    def share_of_pg(text, pair, key, bound_key, share):
        """A goal of `share` of PostgreSQL's own rate, with the bound of the run: missed, or out of reach here."""
        s = summary.get(pair)
        if not s or not s["complete"] or not s.get(key):
            return f"* {text}: not measured yet."
        if not s["pg"]:
            return f"* {text}: no pg_recvlogical figure."
        figure = f"{100 * s[key] / s['pg']:.0f}%"
        if s[key] >= share * s["pg"]:
            return f"* {text}: {figure} — **met**."
        b = s.get(bound_key)
        if b and b < share * s["pg"]:
            return (f"* {text}: {figure} — **out of reach on this machine**: the bound of the run is "
                    f"{100 * b / s['pg']:.0f}% ({rate(b)} events/s).")
        return f"* {text}: {figure} — **missed**" + (f" (bound of the run {100 * b / s['pg']:.0f}%)." if b else ".")

    for w in ["W1", "W3"]:
        out.append(share_of_pg(f"{w} ≥ 60% of PostgreSQL's emission rate", (w, "2g"), "o", "json_bound", 0.6))
    w1_small = summary.get(("W1", "256m"))
    w1_big = summary.get(("W1", "2g"))
    if w1_small and w1_big and w1_small["complete"] and w1_big["complete"]:
        out.append(f"* W1 with 256 MB as fast as with 2 GB: {rate(w1_small['o'])} vs {rate(w1_big['o'])} events/s "
                   f"({100 * w1_small['o'] / w1_big['o']:.0f}%) — "
                   f"**{'met' if w1_small['o'] >= 0.95 * w1_big['o'] else 'missed'}** (met = within 5%).")
    else:
        out.append("* W1 with 256 MB as fast as with 2 GB: not measured yet.")
    out.append(goal("W4 completes with 256 MB and commit → last ≤ half Debezium's", ("W4", "256m"),
                    lambda s: (s["dc"] is not None and s["oc"] <= 0.5 * s["dc"],
                               f"ours {secs(s['oc'])} s vs Debezium {secs(s['dc']) if s['dc'] is not None else '–'} s")))
    out.append(times_debezium("W5 ≥ 2× Debezium", ("W5", "2g"), "o", "json_bound", 2))
    for h in ["2g", "256m"]:
        out.append(times_debezium(f"W5 ≥ 4× Debezium at {h} (issue 18)", ("W5", h), "o", "json_bound", 4))
        out.append(times_debezium(f"W5 with direct.encoding=json ≥ 4× Debezium at {h} (issue 18)", ("W5", h), "x",
                                  "direct_bound", 4))
    for h in ["2g", "256m"]:
        out.append(times_debezium(f"W6 (incremental snapshot) ≥ 3× Debezium's incremental snapshot at {h} (issue 18)",
                                  ("W6", h), "o", "json_bound", 3))
        out.append(times_debezium(f"W6 with direct.encoding=json ≥ 3× Debezium at {h} (issue 18)", ("W6", h), "x",
                                  "direct_bound", 3))
    for h in ["2g", "256m"]:
        out.append(times_debezium(f"W7 (incremental snapshot while rows change, Kafka signal, read-only) ≥ 3× Debezium "
                                  f"at {h} (issue 18)", ("W7", h), "o", "json_bound", 3))
        out.append(times_debezium(f"W7 with direct.encoding=json ≥ 3× Debezium at {h} (issue 18)", ("W7", h), "x",
                                  "direct_bound", 3))
    for w in ["W1", "W3", "W5"]:
        out.append(goal(f"{w} ≥ 95% of the Connect ceiling's emission (issue 19, JSON)", (w, "2g"),
                        lambda s: (s["o_emit"] >= 0.95 * s["c_emit"], f"{100 * s['o_emit'] / s['c_emit']:.0f}%")
                        if s["c_emit"] and s["o_emit"] else (False, "no emission figure")))
        out.append(goal(f"{w} with direct.encoding=json ≥ 95% of the direct ceiling's emission (issue 19)", (w, "2g"),
                        lambda s: (s["x_emit"] >= 0.95 * s["cx_emit"], f"{100 * s['x_emit'] / s['cx_emit']:.0f}%")
                        if s["cx_emit"] and s["x_emit"] else (False, "no emission figure")))
    for w in ["W1", "W3"]:
        out.append(times_debezium(f"{w} with direct.encoding=json ≥ 3× Debezium (issue 19)", (w, "2g"), "x",
                                  "direct_bound", 3))
        out.append(share_of_pg(f"{w} with direct.encoding=json ≥ 60% of PostgreSQL's emission rate (issue 19)",
                               (w, "2g"), "x", "direct_bound", 0.6))
    svg = os.path.join(os.path.dirname(doc) or ".", CHART)
    chart(rows, pairs, svg)
    out += ["", f"![events/s per workload and contender, with the limits as lines]({CHART})", "",
            f"`{CHART}` (drawn by the same script from the same file): the median events/s of each contender per workload",
            "and heap on a log scale, PostgreSQL's own rate (`pg_recvlogical`, or COPY for W5–W7) as a solid line and the",
            "producer's as a dashed line across each group. A contender missing from a group was not run there."]
    section = "\n".join(out) + "\n"

    text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n"
    start = text.find(HEADING_PREFIX)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(HEADING_PREFIX))
        text = text[:start] + section + ("\n" + text[end + 1:] if end >= 0 else "")
    with open(doc, "w") as f:
        f.write(text)


EOS_VARIANTS = [("ours", "at-least-once"), ("ours_eos_poll", "exactly-once, `transaction.boundary=poll`"),
                ("ours_eos_connector", "exactly-once, `transaction.boundary=connector`"),
                ("ours_eos_batched", "exactly-once, connector, `transaction.batch.max.deliveries=1000`")]


def exactly_once(results, section):
    rows = load(results)
    pairs = pairs_of(rows)
    out = ["Written by `bench/side-by-side.sh --exactly-once` from `bench/results/side-by-side-exactly-once.jsonl`.",
           "Our connector only, one leg per variant and run (order reversed every other run), each on a fresh worker, slot",
           "and topics,",
           "otherwise as in the side-by-side setup above (same table, PostgreSQL settings, broker, `snapshot.mode=no_data`",
           "for W1–W4 and `initial` for W5, whose exactly-once legs read the table in key order, resumably,",
           "`provide.transaction.metadata=false`):",
           "",
           "* **at-least-once**: the worker as above.",
           "* **exactly-once, poll**: the worker with `exactly.once.source.support=enabled`, the connector with",
           "  `exactly.once.support=required` and Connect's default `transaction.boundary=poll` (one Kafka transaction",
           "  per `poll()`).",
           "* **exactly-once, connector**: the same with `transaction.boundary=connector` (one Kafka transaction per",
           "  delivery: per PostgreSQL transaction here), `transaction.max.records` raised to the row count (W1 is one",
           "  delivery) and `producer.override.transaction.timeout.ms=600000`.",
           "* **exactly-once, connector, batched** (`--contenders ours,ours-eos-poll,ours-eos-connector,ours-eos-batched`):",
           "  the same with `transaction.batch.max.deliveries=1000`, so whole deliveries ending in one poll share a Kafka",
           "  transaction.",
           "",
           "Every leg, at-least-once included, counts records with a `read_committed` consumer reading the table topic",
           "from the start (an end offset would count the transaction markers too); a leg fails if more records than",
           "rows arrive. **events/s** = rows ÷ (workload start → the consumer has received the last record). Figures",
           "are median [min–max] over the runs; **÷ ALO** divides by the at-least-once leg of the same run (median of",
           "the per-run ratios; per-run values in brackets). The machine is shared (2 cores, other test suites running),",
           "so absolute figures are noisy: compare the ratios within a run.",
           "",
           "| Workload | Heap | Runs | Variant | events/s | ÷ ALO (per run) | Commit → last, s | Peak RSS MiB |",
           "|---|---|---|---|---|---|---|---|"]
    for (w, h) in pairs:
        legs = [r for r in rows if r.get("kind") == "leg" and r["workload"] == w and r["heap"] == h]
        alo = {r["run"]: r for r in legs if r["contender"] == "ours"}
        runs = max([r["run"] for r in legs], default=0)
        events = legs[0]["events"] if legs else 0
        for contender, label in EOS_VARIANTS:
            mine = [r for r in legs if r["contender"] == contender]
            if not mine:
                continue
            ratios = [r["events_per_s"] / alo[r["run"]]["events_per_s"] for r in mine if r["run"] in alo]
            rel = "–" if contender == "ours" or not ratios else \
                f"**{med(ratios):.2f}** ({', '.join(f'{x:.2f}' for x in ratios)})"
            c2l = [r["commit_to_last_s"] for r in mine if r.get("commit_to_last_s") is not None]
            out.append(f"| {w}: {WHAT[w].format(n=events)} | {h} | {runs} | {label} | "
                       f"{span([r['events_per_s'] for r in mine], rate)} | {rel} | {span(c2l, secs)} | "
                       f"{span([r['peak_rss_kib'] for r in mine], mib)} |")
    out += [""] + runs_lines(rows, pairs)
    with open(section, "w") as f:
        f.write("\n".join(out) + "\n")


AVRO_CONTENDERS = [("ours", "Ours"), ("dbz", DEBEZIUM), ("ceiling", "Connect ceiling")]


def avro(results, section):
    rows = load(results)
    pairs = pairs_of(rows)
    out = ["Written by `bench/side-by-side.sh --converter avro` from `bench/results/side-by-side-avro.jsonl`. The",
           "side-by-side setup above, except that every connector, the ceiling's too, has Apicurio Registry 2.6.13's",
           "`AvroConverter` as key and value converter (Confluent's wire format through the registry's Confluent API,",
           "`apicurio.registry.as-confluent=true`, `use-id=contentId`, schemas auto-registered, no schema headers;",
           "the registry runs in its own JVM with in-memory storage, `bench/apicurio-plugin`). The ceiling's records are",
           "our records as in the JSON runs, so ours ÷ ceiling is the share of what the worker, this converter and the",
           "producer allow. The direct encoding writes JSON and is not part of these runs.",
           "",
           "| Workload | Heap | Runs | Contender | events/s | Emission events/s | First record s | Worker CPU µs/event | Record bytes |",
           "|---|---|---|---|---|---|---|---|---|"]
    shares = ["", "| Workload | Heap | Ours ÷ Debezium (per run) | Ours ÷ ceiling, emission | Ours ÷ ceiling, events/s |"
              " Bound ÷ Debezium |", "|---|---|---|---|---|---|"]
    goals = ["", "Goal of issue 19 with Avro, from the medians above:", ""]
    for (w, h) in pairs:
        legs = [r for r in rows if r.get("kind") == "leg" and r["workload"] == w and r["heap"] == h]
        runs = max([r["run"] for r in legs], default=0)
        events = legs[0]["events"] if legs else 0
        for contender, label in AVRO_CONTENDERS:
            if not of(legs, contender, "events_per_s"):
                continue
            size = med(of(legs, contender, "record_bytes"))
            out.append(f"| {w}: {WHAT[w].format(n=events)} | {h} | {runs} | {label} | "
                       f"{span(of(legs, contender, 'events_per_s'), rate)} | "
                       f"{span(of(legs, contender, 'emission_events_per_s'), rate)} | "
                       f"{span(of(legs, contender, 'first_record_s'), secs)} | "
                       f"{span(of(legs, contender, 'worker_cpu_us_per_event'), lambda v: f'{v:.1f}')} | "
                       f"{f'{size:.0f}' if size else '–'} |")
        o, d = med(of(legs, "ours", "events_per_s")), med(of(legs, "dbz", "events_per_s"))
        c = med(of(legs, "ceiling", "events_per_s"))
        o_emit, c_emit = med(of(legs, "ours", "emission_events_per_s")), med(of(legs, "ceiling", "emission_events_per_s"))
        shares.append(f"| {w} | {h} | **{ratio(o, d)}**{runs_of(per_run(legs, 'ours', 'dbz'))} | "
                      f"{ratio(o_emit, c_emit)} | {ratio(o, c)} | {ratio(bound(legs, 'ceiling', events), d)} |")
        if o_emit and c_emit:
            share = o_emit / c_emit
            goals.append(f"* {w} at {h}: ours {100 * share:.0f}% of the Avro ceiling's emission — "
                         f"**{'met' if share >= 0.95 else 'missed'}** (goal ≥ 95%).")
    out += shares + goals + [""] + runs_lines(rows, pairs)
    with open(section, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "merge":
        merge(*sys.argv[2:8])
    elif sys.argv[1] == "exactly-once":
        exactly_once(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "merge-limits":
        merge_limits(*sys.argv[2:6])
    elif sys.argv[1] == "avro":
        avro(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
