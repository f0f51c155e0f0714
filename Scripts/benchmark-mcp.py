#!/usr/bin/env python3
"""Times `healthprobe mcp` as an assistant meets it, through the official Python MCP SDK:
startup (the process started to its answer to `initialize`), then each question of QUESTIONS,
ROUNDS times; the server's peak resident memory from outside (/usr/bin/time -f %M).

Usage: benchmark-mcp.py HEALTHPROBE ARCHIVE ROUNDS QUESTIONS.json
(Scripts/benchmark-mcp-questions.json: the questions BENCHMARKS.md reports, on the archive of
Scripts/benchmark-rebuild.sh.)
"""
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main():
    binary, archive, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    questions = json.load(open(sys.argv[4]))
    memory = tempfile.NamedTemporaryFile(delete=False).name
    server = StdioServerParameters(
        command="/usr/bin/time", args=["-f", "%M", "-o", memory, binary, "mcp", "--archive", archive])
    timings = {q["name"]: [] for q in questions}
    started = time.perf_counter()
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            startup = time.perf_counter() - started
            for _ in range(rounds):
                for question in questions:
                    begin = time.perf_counter()
                    result = await session.call_tool(question["tool"], question["arguments"])
                    timings[question["name"]].append(time.perf_counter() - begin)
                    if result.is_error:
                        raise SystemExit(f"{question['name']}: {result.content}")
    with open(memory) as file:
        peak = int(file.read().strip().splitlines()[-1])
    os.unlink(memory)
    print(f"startup {startup * 1000:.0f} ms")
    for name, values in timings.items():
        print(f"{name}: median {statistics.median(values) * 1000:.0f} ms "
              f"(min {min(values) * 1000:.0f}, max {max(values) * 1000:.0f}, {len(values)} calls)")
    print(f"peak memory {peak / 1024:.0f} MB")


asyncio.run(main())
