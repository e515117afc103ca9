// webpack.conf's environment shim, preloaded (NODE_OPTIONS=--require) by the
// conf's `webpack` wrapper in BOTH runs (plain and hooked): Debian's
// enhanced-resolve 5.10.0 (ResolverFactory.js:231) builds its default module
// folders from process.config.variables.node_relative_path and node_prefix,
// which Debian's nodejs 18 defines and nodesource's node 20 (the machine's
// node) does not ("Cannot read properties of undefined (reading 'split')").
// process.config is frozen but configurable: it is replaced by a copy with
// Debian's two values. Nothing else is changed; no text webpack prints
// comes from here.
"use strict";
const c = JSON.parse(JSON.stringify(process.config));
c.variables.node_relative_path = "lib/x86_64-linux-gnu/nodejs:share/nodejs:lib/nodejs";
c.variables.node_prefix = "/usr";
Object.defineProperty(process, "config", { value: c, configurable: true, writable: false, enumerable: true });
