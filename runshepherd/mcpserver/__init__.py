"""`orchestrate mcp`: the MCP server (tools over a CLI context, background sessions, SDK wiring)."""
