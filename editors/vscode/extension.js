// The errbook extension: starts `errbook lsp` (the binary the `errbook.path` setting names) in
// the workspace folder that holds book.toml, for the catalog's Markdown files.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

async function activate(context) {
  const books = await vscode.workspace.findFiles('book.toml', null, 1);
  const root = books.length ? vscode.Uri.joinPath(books[0], '..').fsPath : undefined;
  const command = vscode.workspace.getConfiguration('errbook').get('path') || 'errbook';
  const args = root ? ['--root', root, 'lsp'] : ['lsp'];
  const server = { command, args, options: { cwd: root } };
  client = new LanguageClient('errbook', 'errbook', server, {
    documentSelector: [{ scheme: 'file', language: 'markdown', pattern: '**/content/**/*.md' }],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{book.toml,verify/**,content/**/*.md}'),
    },
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('errbook.path')) {
        await client.stop();
        await activate(context);
      }
    }),
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
