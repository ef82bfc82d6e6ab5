// The VS Code client of `takeaway lsp`: started for every .game file, with the command the
// setting `takeaway.path` names (`takeaway` on the PATH by default). Highlighting needs none of
// this; diagnostics, hover, completion and formatting do (`npm install` in this folder first).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("takeaway").get("path") || "takeaway";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "takeaway",
    "takeaway",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "takeaway" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
