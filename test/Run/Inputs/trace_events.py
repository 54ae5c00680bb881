#!/usr/bin/env python3
"""Parses a Chrome trace written by `fuse-run --trace` and prints its events.

usage: trace_events.py FILE.json

Fails unless the file is JSON with a `traceEvents` list of complete ("X")
events with non-negative times that follow each other on the clock. Prints
one line per event, `CATEGORY NAME run=RUN bytes=BYTES`, then the count.
"""

import json
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
with open(sys.argv[1]) as f:
    trace = json.load(f)
events = trace["traceEvents"]
clock = 0.0
for event in events:
    assert event["ph"] == "X", event
    assert isinstance(event["ts"], (int, float)), event
    assert event["ts"] >= clock, event
    assert isinstance(event["dur"], (int, float)) and event["dur"] >= 0, event
    clock = event["ts"]
    args = event["args"]
    print(f"{event['cat']} {event['name']} run={args['run']} "
          f"bytes={args['bytes']}")
print(f"{len(events)} events, displayTimeUnit {trace['displayTimeUnit']}")
