#!/usr/bin/env python3
"""Lifeline on Apache Spark: replay a fleet's uploaded logs with the same binary and rules.

    python3 spark/lifeline_spark.py --input DIR --output DIR [--lifeline BIN] [--master URL]

The job runs the `lifeline` binary on the executors; Spark only moves bytes between them:

1. Map: the log files under --input (found as `lifeline ingest` finds them: recursively, in
   name order, by their endings) are split into tasks; each task runs
   `lifeline key-by-device --paths-from -`, which reads its files as `ingest` does (any
   compression, damaged and cut-short files, bad lines counted by reason) and writes every event
   line keyed by its device, a record for each device of a cut-short file, and a report per file.
2. Shuffle: records are partitioned by a hash of the device and sorted by device, so that every
   device's lines meet in one partition, one device after another, whichever uploads and files
   they came in (a device split across several uploads, a file holding several devices).
3. Reduce: each partition is piped through `lifeline check --stdin --keyed`, which replays each
   device whole, in the order `lifeline check` replays a database (duplicates dropped, launches by
   first time, cut-short launches as cut), and writes findings as JSON lines, each launch's row
   of the `launches` table (`--launches`) and its totals.
4. Output: OUTPUT/findings/ (Parquet, partitioned by `day`, the columns of the `findings` table),
   OUTPUT/findings.jsonl/ (the same findings as `check --stdin` writes them, for
   `lifeline import-findings OUTPUT --db FILE`), OUTPUT/launches/ (Parquet, partitioned by the
   `day` of `first_ts`, the columns of the `launches` table but those a store fills in from the
   findings, which a join on device and launch gives), OUTPUT/launches.jsonl/ (the same rows as
   `check --stdin --launches` writes them) and OUTPUT/summary.json (files, lines, events,
   duplicates, bad lines by reason, lost lines, cut and damaged files, launches, findings by rule,
   and the same per partition).

Every output is written by Spark's DataFrame writer in overwrite mode: a task's files are
committed only when it succeeds, so a retried task (a lost executor, or the failure forced by
LIFELINE_SPARK_FAIL_ONCE=MARKER-FILE, which makes the first replay task of the job fail after its
first finding, or at its end if it has none) does not duplicate findings. Counts travel with the data, not in accumulators, so a
retry does not count twice either.

The executors must see the input files at the paths the driver lists (a shared mount) and have the
`lifeline` binary at --lifeline.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib

#: File name endings taken from a directory: those of `lifeline ingest` (InputPaths.logSuffixes).
LOG_SUFFIXES = (".jsonl", ".ndjson", ".jsonl.zst", ".ndjson.zst", ".jsonl.gz", ".ndjson.gz", ".zst", ".gz")

#: Bytes gathered before they are written to a lifeline process.
PIPE_CHUNK = 1 << 20


def parse_args(argv):
    """The command line."""
    parser = argparse.ArgumentParser(
        description="Replay a directory of Lifeline logs on Apache Spark, grouped by device.")
    parser.add_argument("--input", required=True, help="directory (or file) of uploaded logs")
    parser.add_argument("--output", required=True, help="directory to write findings/, findings.jsonl/ and summary.json to")
    parser.add_argument("--lifeline", help="the lifeline binary (default: lifeline on PATH, else .build/release or .build/debug)")
    parser.add_argument("--master", default=None, help="Spark master URL (default: spark-submit's, else local[*])")
    parser.add_argument("--partitions", type=int, default=0, help="partitions of the shuffle by device (default: 2 per core)")
    parser.add_argument("--map-tasks", type=int, default=0, help="tasks reading files (default: 2 per core)")
    parser.add_argument("--config", help="a Lifeline configuration file (budgets, severities) for the replay")
    parser.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                        help="a Spark setting (repeatable), e.g. spark.executor.memory=4g")
    return parser.parse_args(argv)


def find_lifeline(given):
    """The absolute path of the lifeline binary."""
    if given:
        path = given
    else:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        candidates = [shutil.which("lifeline")] + [
            os.path.join(here, ".build", kind, "lifeline") for kind in ("release", "debug")]
        path = next((c for c in candidates if c and os.access(c, os.X_OK)), None)
        if path is None:
            sys.exit("lifeline_spark: no lifeline binary: build it (swift build -c release) or give --lifeline BIN")
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        sys.exit(f"lifeline_spark: {path} is not an executable lifeline binary")
    return path


def list_log_files(root):
    """The files `lifeline ingest ROOT` would read, in the same order: a file as it is; a
    directory depth first, names sorted, files whose names end like a log, symbolic links to
    directories not followed."""
    if not os.path.isdir(root):
        return [root]
    found = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if os.path.isdir(path) and not os.path.islink(path):
            found.extend(list_log_files(path))
        elif name.endswith(LOG_SUFFIXES) and os.path.isfile(path):
            found.append(path)
    return found


def split_tasks(paths, tasks):
    """Contiguous slices of the file list, one per map task: (number of the first file, paths)."""
    tasks = max(1, min(tasks, len(paths)))
    size, extra = divmod(len(paths), tasks)
    slices, start = [], 0
    for index in range(tasks):
        end = start + size + (1 if index < extra else 0)
        slices.append((start, paths[start:end]))
        start = end
    return slices


class Feeder(threading.Thread):
    """Writes `encode(item)` for every item to a process's standard input, in chunks, then closes
    it, on its own thread while the caller reads the process's output. An error while reading the
    items (a shuffle block that could not be fetched) is kept in `error` for the caller to raise:
    the process must not end as if its input had been whole."""

    def __init__(self, stream, items, encode):
        super().__init__(daemon=True)
        self.stream, self.items, self.encode, self.error = stream, items, encode, None

    def run(self):
        try:
            chunk, size = [], 0
            for item in self.items:
                data = self.encode(item)
                chunk.append(data)
                size += len(data)
                if size >= PIPE_CHUNK:
                    self.stream.write(b"".join(chunk))
                    chunk, size = [], 0
            if chunk:
                self.stream.write(b"".join(chunk))
        except BrokenPipeError:
            pass  # the process ended early; its exit status says why
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            self.error = error
        finally:
            try:
                self.stream.close()
            except BrokenPipeError:
                pass

    def finish(self):
        """Waits for the thread; raises what reading the items raised."""
        self.join()
        if self.error is not None:
            raise self.error


def failure(what, process, errors):
    """An exception for a lifeline process that failed, with what it said on standard error."""
    errors.seek(0)
    said = errors.read().decode("utf-8", "replace").strip()[-2000:]
    return RuntimeError(f"{what} exited {process.returncode}: {said}")


def key_files(task, lifeline):
    """Map side: runs `lifeline key-by-device` on one slice of files and yields
    (device key, records) pairs: the consecutive records of one device (a file's lines are
    mostly one device's) joined in one value of up to about PIPE_CHUNK bytes, so that Spark
    moves and sorts a few large values rather than one per event. A file's report (F record)
    has the key b"#FILE", which no device key (a JSON string) can be."""
    first, paths = task
    command = [lifeline, "key-by-device", "--paths-from", "-", "--first-index", str(first)]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, bufsize=PIPE_CHUNK)
        writer = Feeder(process.stdin, paths, lambda p: p.encode("utf-8") + b"\n")
        writer.start()
        reports = 0
        key, chunk, size = None, [], 0
        for line in process.stdout:
            if not line.endswith(b"\n"):
                line += b"\n"
            if line[:1] == b"F":
                # Keyed by the file's number, so that reports spread over the partitions.
                reports += 1
                yield b"#" + line.split(b"\t", 2)[1], line
                continue
            device = line.split(b"\t", 2)[1]
            if device != key or size >= PIPE_CHUNK:
                if chunk:
                    yield key, b"".join(chunk)
                key, chunk, size = device, [], 0
            chunk.append(line)
            size += len(line)
        if chunk:
            yield key, b"".join(chunk)
        process.wait()
        writer.finish()
        # 1: some input was bad, 2: a file could not be read; both are in the files' reports.
        if process.returncode not in (0, 1, 2) or reports != len(paths):
            raise failure(f"lifeline key-by-device (files {first}-{first + len(paths) - 1})", process, errors)


def device_partition(key):
    """The partition hash of a device key: the same on every executor (unlike Python's hash)."""
    return zlib.crc32(key)


def should_fail(marker):
    """Whether this task is the one LIFELINE_SPARK_FAIL_ONCE asks to fail: the first to claim the
    marker file (created atomically), so that exactly one task attempt of the job fails."""
    if not marker:
        return False
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def replay_partition(index, records, lifeline, check_args, fail_marker):
    """Reduce side: pipes one partition's records, grouped by device, through
    `lifeline check --stdin --keyed`; yields ("f", finding JSON) for each finding, ("l", launch
    JSON) for each launch, then ("s", totals JSON) with the partition's totals."""
    records = iter(records)
    try:
        first = next(records)
    except StopIteration:
        return
    fail = should_fail(fail_marker)
    with tempfile.TemporaryDirectory() as scratch:
        summary_path = os.path.join(scratch, "summary.json")
        launches_path = os.path.join(scratch, "launches.jsonl")
        command = [lifeline, "check", "--stdin", "--keyed", "--quiet", "--summary-json", summary_path,
                   "--launches", launches_path] + check_args
        with open(os.path.join(scratch, "stderr"), "w+b") as errors:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, bufsize=PIPE_CHUNK)
            stream = _chain(first, records)
            writer = Feeder(process.stdin, stream, lambda pair: pair[1])
            writer.start()
            for line in process.stdout:
                yield "f", line.decode("utf-8").rstrip("\n")
                if fail:
                    process.kill()
                    writer.join()
                    process.wait()
                    raise RuntimeError("LIFELINE_SPARK_FAIL_ONCE: this task fails once on purpose; Spark retries it")
            process.wait()
            writer.finish()
            if fail:
                raise RuntimeError("LIFELINE_SPARK_FAIL_ONCE: this task fails once on purpose; Spark retries it")
            # 1: the files had bad lines or damage (counted in the totals), or findings reached --fail-on.
            if process.returncode not in (0, 1):
                raise failure(f"lifeline check --stdin --keyed (partition {index})", process, errors)
        with open(summary_path, encoding="utf-8") as handle:
            totals = json.load(handle)
        totals["launches"] = 0
        with open(launches_path, encoding="utf-8") as handle:
            for line in handle:
                totals["launches"] += 1
                yield "l", line.rstrip("\n")
    totals["partition"] = index
    yield "s", json.dumps(totals)


def _chain(first, rest):
    """`first`, then everything in `rest`."""
    yield first
    yield from rest


def parse_time(text):
    """An RFC 3339 time as `check` writes it (UTC, `Z`, microseconds) as an aware datetime, or
    None when it is outside what Python and Parquet hold (years 1-9999)."""
    try:
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return None


def _real(value):
    """A JSON number as a float (JSON writes 600.0 as 600), or None."""
    return None if value is None else float(value)


def _ids(events):
    """A JSON array of the events' store row ids (null for a stream), as `findings.event_ids`."""
    return json.dumps([event.get("id") for event in events], separators=(",", ":"))


def _seqs(events):
    """A JSON array of the events' `seq`, as `findings.event_seqs`."""
    return json.dumps([event.get("seq") for event in events], separators=(",", ":"))


def finding_row(line):
    """One finding (a JSON line of `check`) as a row of the columns of the `findings` table; the
    finding a termination is explained by is named by its rule and time, as there is no row id."""
    finding = json.loads(line)
    ts = parse_time(finding["ts"])
    explained = finding.get("explainedBy")
    factors = finding.get("factors")
    if factors is not None:
        factors = json.dumps([
            {"kind": f["kind"], "share": f["share"], "event_ids": [e.get("id") for e in f["evidence"]],
             "event_seqs": [e.get("seq") for e in f["evidence"]]} for f in factors], separators=(",", ":"))
    return (
        finding["rule"], finding["category"], finding["severity"], finding["device"], finding["launch"], ts,
        _ids(finding["events"]), _seqs(finding["events"]), finding.get("budget"), _real(finding.get("budgetSeconds")),
        _real(finding.get("measured")), finding.get("unit"), finding["message"],
        explained["rule"] if explained else None, parse_time(explained["ts"]) if explained else None,
        factors, ts.date() if ts else None)


def findings_schema():
    """The Parquet columns: the `findings` table's, `ts` a timestamp, and `day` (UTC) to partition by."""
    from pyspark.sql.types import DateType, DoubleType, StringType, StructField, StructType, TimestampType
    text = ["rule", "category", "severity", "device", "launch"]
    fields = [StructField(name, StringType(), False) for name in text]
    fields += [
        StructField("ts", TimestampType(), True),
        StructField("event_ids", StringType(), False),
        StructField("event_seqs", StringType(), False),
        StructField("budget", StringType(), True),
        StructField("budget_seconds", DoubleType(), True),
        StructField("measured", DoubleType(), True),
        StructField("unit", StringType(), True),
        StructField("message", StringType(), False),
        StructField("explained_by_rule", StringType(), True),
        StructField("explained_by_ts", TimestampType(), True),
        StructField("factors", StringType(), True),
        StructField("day", DateType(), True),
    ]
    return StructType(fields)


def launch_row(line):
    """One launch (a JSON line of `check --stdin --launches`) as a row of the launches schema."""
    launch = json.loads(line)
    first = parse_time(launch["first_ts"])
    text = ["device", "launch", "app", "app_version", "os", "model", "process"]
    return tuple(launch[name] for name in text) + (
        first, parse_time(launch["last_ts"]), launch["started"], launch["cause"], launch["ended"], launch["end_reason"],
        launch["end_state"], _real(launch["foreground_seconds"]), _real(launch["background_seconds"]),
        _real(launch["suspended_seconds"]), launch["background_periods"], launch["log_cut_short"],
        first.date() if first else None)


def launches_schema():
    """The Parquet columns: the `launches` table's (times as timestamps, `log_cut_short` a boolean),
    but the store's row ids and what it fills in from the findings, and `day` (UTC, of `first_ts`)."""
    from pyspark.sql.types import BooleanType, DateType, DoubleType, StringType, StructField, StructType, TimestampType
    fields = [StructField(name, StringType(), name not in ("device", "launch")) for name in
              ("device", "launch", "app", "app_version", "os", "model", "process")]
    fields += [StructField("first_ts", TimestampType(), True), StructField("last_ts", TimestampType(), True)]
    fields += [StructField(name, StringType(), name not in ("started", "ended", "end_state")) for name in
               ("started", "cause", "ended", "end_reason", "end_state")]
    fields += [StructField(name, DoubleType(), True) for name in
               ("foreground_seconds", "background_seconds", "suspended_seconds")]
    fields += [
        StructField("background_periods", StringType(), False),
        StructField("log_cut_short", BooleanType(), False),
        StructField("day", DateType(), True),
    ]
    return StructType(fields)


def _add(into, counts):
    """Adds a {name: count} map into another."""
    for name, count in counts.items():
        into[name] = into.get(name, 0) + count


def merge_totals(partitions):
    """The job's totals from each partition's `check --stdin --summary-json` totals."""
    keys = ("lines", "decoded", "duplicates", "events", "devices", "launches", "findings", "rejects", "blankLines", "lostLines")
    merged = {key: sum(part[key] for part in partitions) for key in keys}
    merged["lostLinesExact"] = all(part["lostLinesExact"] for part in partitions)
    merged["rejectsByReason"], merged["findingsByRule"], merged["files"] = {}, {}, {}
    damaged = []
    for part in partitions:
        _add(merged["rejectsByReason"], part["rejectsByReason"])
        _add(merged["findingsByRule"], part["findingsByRule"])
        _add(merged["files"], part["files"])
        damaged.extend(part["damagedFiles"])
    merged["damage"] = [dict(d, path=f["path"]) for f in damaged for d in f.get("damage", [])]
    merged["failedFiles"] = [{"path": f["path"], "message": f.get("message")} for f in damaged if f["outcome"] == "failed"]
    merged["partitions"] = sorted((
        {"partition": part["partition"], "files": part["files"]["read"] + part["files"]["failed"], "devices": part["devices"],
         "eventsRead": part["decoded"], "duplicates": part["duplicates"], "events": part["events"],
         "rejects": part["rejects"], "lostLines": part["lostLines"], "launches": part["launches"],
         "findings": part["findings"]}
        for part in partitions), key=lambda p: p["partition"])
    if partitions:
        merged["version"], merged["budgets"] = partitions[0]["version"], partitions[0]["budgets"]
    return merged


def lost_text(summary):
    """The lost lines as `check` words them: a count, "at least" one, or "an unknown number"."""
    lines, exact = summary["lostLines"], summary["lostLinesExact"]
    if exact:
        return str(lines)
    return f"at least {lines}" if lines else "an unknown number of lines"


def summary_text(summary):
    """The totals in a few lines for a person."""
    files = summary["files"]
    reasons = ", ".join(f"{name} {count}" for name, count in sorted(summary["rejectsByReason"].items()))
    rules = ", ".join(f"{name} {count}" for name, count in sorted(summary["findingsByRule"].items()))
    return "\n".join([
        f"files     {files['read']} read, {files['truncated']} truncated, {files['damaged']} damaged, {files['failed']} failed",
        f"lines     {summary['lines']}: {summary['eventsRead']} events read, {summary['rejects']} rejected"
        + (f" ({reasons})" if reasons else "") + f", {summary['blankLines']} blank, " + lost_text(summary) + " lost",
        f"events    {summary['events']} replayed of {summary['devices']} devices ({summary['launches']} launches),"
        f" {summary['duplicates']} duplicates dropped",
        f"findings  {summary['findings']}" + (f": {rules}" if rules else ""),
        f"spark     {summary['seconds']:.1f} s on {summary['master']}, {len(summary['partitions'])} partitions replayed",
    ])


def spark_session(master, settings=()):
    """A Spark session in UTC (so `day` is the UTC date), on this machine's Java 17 if JAVA_HOME is unset."""
    if not os.environ.get("JAVA_HOME"):
        for home in ("/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-17-openjdk-arm64", "/usr/lib/jvm/default-java"):
            if os.path.isdir(home):
                os.environ["JAVA_HOME"] = home
                break
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("lifeline").config("spark.sql.session.timeZone", "UTC") \
        .config("spark.ui.showConsoleProgress", "false")
    for setting in settings:
        key, _, value = setting.partition("=")
        builder = builder.config(key, value)
    if master or not os.environ.get("SPARK_MASTER"):
        builder = builder.master(master or "local[*]")
    return builder.getOrCreate()


def run(args):
    """Runs the job; returns the summary written to OUTPUT/summary.json."""
    from pyspark import StorageLevel
    started = datetime.datetime.now(datetime.timezone.utc)
    clock = time.monotonic()
    lifeline = find_lifeline(args.lifeline)
    paths = [os.path.abspath(path) for path in list_log_files(args.input)]
    if not paths:
        sys.exit(f"lifeline_spark: no log files under {args.input}")
    check_args = ["--config", os.path.abspath(args.config)] if args.config else []
    spark = spark_session(args.master, args.conf)
    context = spark.sparkContext
    context.setLogLevel("WARN")
    cores = max(1, context.defaultParallelism)
    tasks = split_tasks(paths, args.map_tasks or 2 * cores)
    partitions = args.partitions or 2 * cores
    fail_marker = os.environ.get("LIFELINE_SPARK_FAIL_ONCE")

    keyed = context.parallelize(tasks, len(tasks)).flatMap(lambda task: key_files(task, lifeline))
    grouped = keyed.repartitionAndSortWithinPartitions(partitions, device_partition)
    results = grouped.mapPartitionsWithIndex(
        lambda index, records: replay_partition(index, records, lifeline, check_args, fail_marker))
    results.persist(StorageLevel.MEMORY_AND_DISK)

    output = os.path.abspath(args.output)
    findings = results.filter(lambda item: item[0] == "f").map(lambda item: item[1])
    # The replay runs inside this write's tasks: a task that fails leaves no committed file.
    spark.createDataFrame(findings.map(finding_row), findings_schema()) \
        .write.mode("overwrite").partitionBy("day").parquet(os.path.join(output, "findings"))
    spark.createDataFrame(findings.map(lambda line: (line,)), "value string") \
        .write.mode("overwrite").text(os.path.join(output, "findings.jsonl"))
    launches = results.filter(lambda item: item[0] == "l").map(lambda item: item[1])
    spark.createDataFrame(launches.map(launch_row), launches_schema()) \
        .write.mode("overwrite").partitionBy("day").parquet(os.path.join(output, "launches"))
    spark.createDataFrame(launches.map(lambda line: (line,)), "value string") \
        .write.mode("overwrite").text(os.path.join(output, "launches.jsonl"))
    totals = [json.loads(item[1]) for item in results.filter(lambda item: item[0] == "s").collect()]
    results.unpersist()

    summary = merge_totals(totals)
    summary["eventsRead"] = summary.pop("decoded")
    summary.update({
        "input": os.path.abspath(args.input), "output": output, "lifeline": lifeline,
        "master": context.master, "sparkVersion": spark.version, "inputFiles": len(paths),
        "startedAt": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "finishedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "seconds": round(time.monotonic() - clock, 3),
    })
    spark.stop()
    with open(os.path.join(output, "summary.json"), "w", encoding="utf-8") as handle:
        json.dump(summary, handle, indent=2, sort_keys=True)
        handle.write("\n")
    return summary


def main(argv=None):
    """Entry point: runs the job and prints its totals."""
    summary = run(parse_args(sys.argv[1:] if argv is None else argv))
    print(summary_text(summary))
    print(f"wrote {summary['output']}/findings/ and launches/ (Parquet by day), findings.jsonl/, launches.jsonl/"
          " and summary.json")


if __name__ == "__main__":
    main()
