"""Turns courier-bench's JSON lines into one table (printed) and one JSON document (written)."""
import json
import statistics
import sys

rows_path, output_path, server, rounds, quick = sys.argv[1:6]
runs = [json.loads(line) for line in open(rows_path) if line.strip()]


def series(name, variant, figure):
    return {r["round"]: r["figures"][figure] for r in runs
            if r["name"] == name and r["variant"] == variant and figure in r["figures"]}


# (measurement, figure, Courier variant, baseline variant, target, unit)
plan = [
    ("stub", "us_per_request", "courier", "decode", "≤ 11 µs, ≤ 2.5 µs over decode", "µs"),
    ("stub", "us_per_request", "main-actor", "decode", "the same from a loop on the main actor", "µs"),
    ("stub", "us_per_request", "main-actor", "main-actor-hop", "… over decoding plus a bare hop to a nonisolated async function", "µs"),
    ("stub", "us_per_request", "pipeline", None, "pipeline alone, no decoding", "µs"),
    ("cache-hit", "us_per_request", "memory", "pipeline", "≤ 1.5× the stub pipeline (a fresh hit, no network)", "µs"),
    ("cache-hit", "us_per_request", "disk", "pipeline", "reported (a fresh hit from the disk store)", "µs"),
    ("cache-revalidate", "requests_per_second", "revalidate", "network", "reported (304 round trips ÷ full GETs)", "req/s"),
    ("sequential", "requests_per_second", "courier", "raw", "≥ 0.97× raw on Courier's configuration", "req/s"),
    ("sequential", "cpu_us_per_request", "courier", "raw", "≤ 1.05× raw", "µs"),
    ("sequential", "requests_per_second", "courier", "raw-default", "raw on .default (URL cache) for reference", "req/s"),
    ("sequential", "p50_ms", "courier", "raw", "", "ms"),
    ("sequential", "p99_ms", "courier", "raw", "", "ms"),
    ("sequential-1mib", "requests_per_second", "courier", "raw", "≥ 0.95× raw (1 MiB bodies)", "req/s"),
    ("sequential-1mib", "cpu_us_per_request", "courier", "raw", "≤ 1.10× raw", "µs"),
    ("concurrent", "requests_per_second", "courier", "raw", "≥ 0.97× raw (32 in flight)", "req/s"),
    ("concurrent", "cpu_us_per_request", "courier", "raw", "", "µs"),
    ("concurrent", "requests_per_second", "courier", "raw-default", "raw on .default for reference", "req/s"),
    ("sequential-blocks", "requests_per_second", "courier", "raw", "the same in one process, interleaved blocks", "req/s"),
    ("sequential-blocks", "cpu_us_per_request", "courier", "raw", "", "µs"),
    ("sequential-blocks", "requests_per_second", "courier", "raw-completion", "Courier ÷ raw completion-handler task (Courier's own cost)", "req/s"),
    ("sequential-blocks", "cpu_us_per_request", "courier", "raw-completion", "", "µs"),
    ("sequential-blocks", "requests_per_second", "raw-completion", "raw", "raw completion-handler ÷ raw data(for:) (FoundationNetworking's hop)", "req/s"),
    ("sequential-blocks", "cpu_us_per_request", "raw-completion", "raw", "", "µs"),
    ("concurrent-blocks", "requests_per_second", "courier", "raw", "32 in flight, interleaved blocks", "req/s"),
    ("concurrent-blocks", "cpu_us_per_request", "courier", "raw", "", "µs"),
    ("concurrent-blocks", "requests_per_second", "courier", "raw-completion", "Courier ÷ raw completion-handler task, 32 in flight", "req/s"),
    ("concurrent-blocks", "cpu_us_per_request", "courier", "raw-completion", "", "µs"),
    ("concurrent-blocks", "requests_per_second", "raw-completion", "raw", "raw completion-handler ÷ raw data(for:), 32 in flight", "req/s"),
    ("concurrent-blocks", "cpu_us_per_request", "raw-completion", "raw", "", "µs"),
    ("large-memory", "seconds", "courier", "raw", "", "s"),
    ("large-memory", "peak_rss_growth_mib", "courier", "raw", "≤ 105 MiB growth", "MiB"),
    ("large-file", "seconds", "courier", "raw", "≤ 1.03× raw download task", "s"),
    ("large-file", "peak_rss_growth_mib", "courier", "raw", "≤ 4 MiB growth", "MiB"),
    ("large-file", "seconds", "courier", "raw-delegate", "Courier ÷ a raw delegate writing each chunk", "s"),
    ("large-file", "seconds", "raw-delegate", "raw", "raw delegate ÷ raw download task (URLSession's delivery)", "s"),
    ("resume-whole", "seconds", "resumable", "plain", "100 MiB: resumable download ÷ plain download", "s"),
    ("resume-whole", "peak_rss_growth_mib", "resumable", "plain", "", "MiB"),
    ("resume-cuts", "seconds", "cut", "whole", "100 MiB cut 5 times and resumed ÷ uncut (in-process server)", "s"),
    ("resume-cuts", "sent_again_percent", "cut", None, "bytes sent again, % of the file, 5 cuts", "%"),
    ("multipart", "peak_rss_growth_mib", "courier", "raw", "≤ 64 MiB (1 GiB file; raw: plain file upload)", "MiB"),
    ("multipart", "seconds", "courier", "raw", "", "s"),
    ("rss-growth", "rss_growth_mib_per_10k", "courier", "raw", "≤ raw + 1 MiB per 10k (64 in flight, after warm-up)", "MiB"),
    ("rss-growth", "rss_growth_mib_per_10k", "courier-timeout", "raw", "the same, every request with a 60 s timeout", "MiB"),
    ("cancel-latency", "p50_ms", "courier", "raw", "cancel → completion, 16 × 1 MiB in flight", "ms"),
    ("cancel-latency", "p99_ms", "courier", "raw", "", "ms"),
    ("cancel-latency", "max_ms", "courier", "raw", "< 50 ms, or raw's own tail", "ms"),
    ("stream-slow", "peak_rss_growth_mib", "courier", "raw", "100 MiB read slowly: a few MiB (raw: chunks dropped at once)", "MiB"),
    ("stream-slow", "peak_body_memory_mib", "courier", None, "unread bytes held in memory at once", "MiB"),
    ("stream-slow", "seconds", "courier", "raw", "Courier's reader sleeps 10 ms per MiB", "s"),
    ("stream-stalled", "peak_rss_growth_mib", "courier", "raw", "reader stops for 3 s on an endless stream", "MiB"),
    ("stream-stalled", "peak_backlog_mib", "courier", None, "unread bytes kept, memory and disk (cap 256 MiB)", "MiB"),
    ("stream-stalled", "spill_mib", "courier", None, "of which in the temporary file", "MiB"),
    ("stream-stalled", "server_sent_mib", "courier", "raw", "what the server sent before the close", "MiB"),
    ("stream-stalled", "ended_backlog_too_large", "courier", None, "1: the reader got backlogTooLarge", ""),
    ("stream-break", "p50_ms", "courier", "raw", "reader stops → server sees the close", "ms"),
    ("stream-break", "p99_ms", "courier", "raw", "", "ms"),
    ("stream-break", "max_ms", "courier", "raw", "< 50 ms", "ms"),
    ("ahc-sequential", "requests_per_second", "courier", "raw", "≥ 0.95× raw AsyncHTTPClient", "req/s"),
    ("ahc-sequential", "cpu_us_per_request", "courier", "raw", "CPU per request", "µs"),
    ("ahc-sequential", "requests_per_second", "courier", "urlsession", "≥ 2× raw URLSession", "req/s"),
    ("ahc-sequential", "requests_per_second", "raw", "urlsession", "raw AsyncHTTPClient ÷ raw URLSession", "req/s"),
    ("ahc-concurrent", "requests_per_second", "courier", "raw", "≥ 0.95× raw AsyncHTTPClient (32 in flight)", "req/s"),
    ("ahc-concurrent", "cpu_us_per_request", "courier", "raw", "CPU per request", "µs"),
    ("ahc-concurrent", "requests_per_second", "courier", "urlsession", "≥ 3.5× raw URLSession", "req/s"),
    ("ahc-concurrent", "requests_per_second", "raw", "urlsession", "raw AsyncHTTPClient ÷ raw URLSession", "req/s"),
    ("ahc-sequential-blocks", "requests_per_second", "courier", "raw", "the same in one process, interleaved blocks", "req/s"),
    ("ahc-sequential-blocks", "cpu_us_per_request", "courier", "raw", "", "µs"),
    ("ahc-concurrent-blocks", "requests_per_second", "courier", "raw", "32 in flight, interleaved blocks", "req/s"),
    ("ahc-concurrent-blocks", "cpu_us_per_request", "courier", "raw", "", "µs"),
    ("ahc-large-file", "seconds", "courier", "raw", "100 MiB to a file", "s"),
    ("ahc-large-file", "peak_rss_growth_mib", "courier", "raw", "≤ 8 MiB growth", "MiB"),
    ("ahc-multipart", "peak_rss_growth_mib", "courier", "raw", "≤ 32 MiB (1 GiB file; raw: plain file upload)", "MiB"),
    ("ahc-multipart", "seconds", "courier", "raw", "", "s"),
    ("ahc-tls", "requests_per_second", "pinned", "pooled", "pinned (kept connections) ÷ unpinned (AsyncHTTPClient's pool)", "req/s"),
    ("ahc-tls", "cpu_us_per_request", "pinned", "pooled", "", "µs"),
    ("ahc-tls", "requests_per_second", "pinned-fresh", "fresh", "a new connection each: pins ÷ raw AsyncHTTPClient", "req/s"),
    ("ahc-tls", "cpu_us_per_request", "pinned-fresh", "fresh", "CPU per request, handshake included", "µs"),
    ("ws-receive", "messages_per_second", "courier", "raw", "≥ 0.9× raw SwiftNIO socket (64-byte messages pushed)", "msg/s"),
    ("ws-receive", "cpu_us_per_message", "courier", "raw", "CPU per message", "µs"),
    ("ws-echo", "messages_per_second", "courier", "raw", "≥ 0.9× raw (round trips, one after another)", "msg/s"),
    ("ws-echo", "cpu_us_per_message", "courier", "raw", "CPU per round trip", "µs"),
    ("ws-duplex", "messages_per_second", "courier", "raw", "≥ 0.9× raw (one task sends, another reads the echoes)", "msg/s"),
    ("ws-duplex", "cpu_us_per_message", "courier", "raw", "CPU per message", "µs"),
    ("ws-slow-reader", "peak_rss_growth_mib", "courier", "raw", "flat: 64 MiB pushed at a reader taking 4 ms a message", "MiB"),
    ("auth", "refreshes", "courier", None, "100 concurrent 401s → 1 refresh", ""),
    ("auth", "seconds", "courier", None, "", "s"),
    ("outbox-enqueue", "us_per_entry", "courier", "raw", "enqueue, synced, ÷ the same durable write by hand", "µs"),
    ("outbox-enqueue", "entries_per_second", "courier", "raw", "one at a time", "/s"),
    ("outbox-memory", "rss_growth_mib", "courier", "small", "100,000 entries waiting ÷ 1,000: flat", "MiB"),
]


def summary(values):
    if not values:
        return None
    v = list(values)
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}


def fmt(s):
    if s is None:
        return "n/a"
    m = s["median"]
    digits = 0 if m >= 100 else 2
    return f"{m:.{digits}f} [{s['min']:.{digits}f}–{s['max']:.{digits}f}]"


table = []
for name, figure, a, b, target, unit in plan:
    sa = series(name, a, figure) if a else {}
    sb = series(name, b, figure) if b else {}
    paired = [sa[r] / sb[r] for r in sa if r in sb and sb[r]]
    row = {
        "measurement": name, "figure": figure, "unit": unit, "target": target,
        "courier_variant": a, "baseline_variant": b,
        "courier": summary(sa.values()), "baseline": summary(sb.values()),
        "paired_ratio": summary(paired),
    }
    if name == "stub" and a in ("courier", "main-actor") and paired:
        row["over_baseline_us"] = summary([sa[r] - sb[r] for r in sa if r in sb])
    table.append(row)

header = f"{'measurement':<16}{'figure':<34}{'Courier median [range]':<28}{'baseline median [range]':<28}{'Courier ÷ baseline [range]':<34}target"
print()
print(f"Server: {server}; rounds: {rounds}; {'quick' if quick == '1' else 'full'} mode")
print(header)
print("-" * len(header))
for row in table:
    pr = row["paired_ratio"]
    ratio = "n/a" if pr is None else f"{pr['median']:.3f}× [{pr['min']:.3f}–{pr['max']:.3f}]"
    if "over_baseline_us" in row:
        ratio += f" (+{row['over_baseline_us']['median']:.2f} µs)"
    label = row["figure"] + (f" ({row['courier_variant']})" if row["courier_variant"] not in (None, "courier") else "")
    if row["baseline_variant"] not in (None, "raw", "decode"):
        label += f" ÷ {row['baseline_variant']}"
    print(f"{row['measurement']:<16}{label:<34}{fmt(row['courier']):<28}{fmt(row['baseline']):<28}{ratio:<34}{row['target']}")

json.dump({"server": server, "rounds": int(rounds), "quick": quick == "1", "rows": table, "runs": runs},
          open(output_path, "w"), indent=2)
print(f"\nWritten to {output_path}")
