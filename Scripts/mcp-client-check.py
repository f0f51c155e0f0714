#!/usr/bin/env python3
"""Asks `healthprobe mcp` what an assistant would, through the official Python MCP SDK (PyPI
`mcp`), as an independent client: lists its tools and resources, calls each tool, and prints one
JSON object of what came back, for the tests to judge.

Usage: mcp-client-check.py HEALTHPROBE ARCHIVE [--reveal-values] CALLS.json
CALLS.json: [{"tool": "...", "arguments": {...}}, ...]; a call refused with a JSON-RPC error is
{"tool": "...", "error": {"code": ..., "message": "..."}}
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError


async def main():
    binary, archive = sys.argv[1], sys.argv[2]
    reveal = "--reveal-values" in sys.argv[3:-1]
    calls = json.load(open(sys.argv[-1]))
    arguments = ["mcp", "--archive", archive] + (["--reveal-values"] if reveal else [])
    server = StdioServerParameters(command=binary, args=arguments)
    out = {"calls": []}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            out["server"] = initialized.server_info.name
            out["instructions"] = initialized.instructions
            tools = await session.list_tools()
            out["tools"] = {tool.name: {"readOnly": bool(tool.annotations and tool.annotations.read_only_hint),
                                        "schema": tool.input_schema} for tool in tools.tools}
            resources = await session.list_resources()
            out["resources"] = [str(resource.uri) for resource in resources.resources]
            if resources.resources:
                read_back = await session.read_resource(resources.resources[0].uri)
                out["firstResource"] = read_back.contents[0].text
            for call in calls:
                try:
                    result = await session.call_tool(call["tool"], call.get("arguments") or {})
                except MCPError as refused:
                    # A JSON-RPC error (invalid params): its code and message.
                    out["calls"].append({"tool": call["tool"], "error": {"code": refused.error.code,
                                                                         "message": refused.error.message}})
                    continue
                text = "".join(getattr(part, "text", "") for part in result.content)
                out["calls"].append({"tool": call["tool"], "isError": bool(result.is_error),
                                     "structured": result.structured_content, "text": text})
    print(json.dumps(out))


asyncio.run(main())
