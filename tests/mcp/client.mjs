// client.mjs — the official MCP TypeScript SDK client against `faultline mcp`
// over stdio: connect, list the tools, call every one of them.  Prints one
// JSON object summarising what it saw (checked by tests/e2e/t_mcp.sh).
// usage: node client.mjs FAULTLINE_BINARY MESSAGE LOG -- MCP_ARGS...
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [fl, message, log, sep, ...mcpArgs] = process.argv.slice(2);
if (sep !== "--") {
  console.error("usage: node client.mjs FAULTLINE MESSAGE LOG -- MCP_ARGS...");
  process.exit(2);
}
const out = {};
const transport = new StdioClientTransport({
  command: fl,
  args: ["mcp", ...mcpArgs],
  env: process.env,
  stderr: "inherit",
});
const client = new Client({ name: "faultline-e2e", version: "1.0.0" });
const timer = setTimeout(() => {
  console.error("client.mjs: timed out");
  process.exit(3);
}, 60000);
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.capabilities = client.getServerCapabilities();
  out.instructions = client.getInstructions();
  const { tools } = await client.listTools();
  out.tools = tools.map((t) => ({
    name: t.name,
    described: typeof t.description === "string" && t.description.length > 40,
    input: t.inputSchema?.type,
    output: t.outputSchema?.type,
  }));
  // every call validates structuredContent against the tool's outputSchema
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    return {
      isError: r.isError === true,
      text: r.content?.[0]?.type === "text" ? r.content[0].text : null,
      structured: r.structuredContent ?? null,
    };
  };
  out.search = await call("search_error", { message, limit: 3 });
  const best = out.search.structured?.matches?.[0];
  if (best) {
    out.get = await call("get_error", { id: best.id });
    out.getBySlug = await call("get_error", { repo: best.repo, slug: best.slug });
  }
  out.unknown = await call("get_error", { id: "ffffffffffffffff" });
  out.repos = await call("list_repos", {});
  out.log = await call("explain_log", { log });
  out.refresh = await call("refresh_dataset", {});
  try {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    out.unknownTool = "no error";
  } catch (e) {
    out.unknownTool = { code: e.code, message: e.message };
  }
  out.ping = await client.ping();
  await client.close();
} catch (e) {
  out.failure = String(e && e.stack ? e.stack : e);
}
clearTimeout(timer);
console.log(JSON.stringify(out));
process.exit(out.failure ? 1 : 0);
