-- The end-to-end test of `errbook lsp` in Neovim (headless), run by .ci/editor.sh:
--
--   ERRBOOK_BIN=target/debug/errbook CATALOG=<a copy of the seed catalog> \
--     nvim --headless --clean -c "luafile tests/editor/lsp.lua"
--
-- It opens an article of the catalog, types a broken reference and waits for the server's
-- E-link diagnostic, completes the reference, sees the diagnostic go, writes errbook's reading
-- of a code block as attributes (a code action), and renames the entry (its ID line, its file,
-- the reference). Each step prints ok or FAIL; Neovim exits non-zero
-- on any failure. Written for Neovim 0.7 (Debian 12) and later.
local bin = assert(os.getenv('ERRBOOK_BIN'), 'ERRBOOK_BIN')
local root = assert(os.getenv('CATALOG'), 'CATALOG')
local failures = 0

local function check(ok, what)
  if ok then
    io.stdout:write('ok: ' .. what .. '\n')
  else
    io.stdout:write('FAIL: ' .. what .. '\n')
    failures = failures + 1
  end
  return ok
end

local function finish()
  io.stdout:write(failures == 0 and 'editor tests: all passed\n' or ('editor tests: ' .. failures .. ' failed\n'))
  io.stdout:flush()
  vim.cmd(failures == 0 and 'qall!' or 'cquit! 1')
end

local function has_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local ok, err = pcall(function()
  local article = root .. '/content/articles/why-am-i-getting-a-cuda-initialization-error.md'
  local entry = root .. '/content/errors/pytorch/dataset-worker-fork-cuda.md'
  vim.cmd('edit ' .. vim.fn.fnameescape(article))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'errbook',
    cmd = { bin, '--root', root, 'lsp' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'catalog' } },
    flags = { debounce_text_changes = 20 },
  })
  check(id ~= nil, 'the server starts')
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  check(vim.wait(20000, function() return client.initialized end, 50), 'the handshake ends')
  local enc = client.offset_encoding or 'utf-16'

  -- A broken reference, typed.
  local n = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, n, n, false, { '', 'See [the entry](@/errors/pytorch/dataset-worker-fork-cuad.md).' })
  local d
  vim.wait(20000, function() d = has_code(buf, 'E-link'); return d ~= nil end, 50)
  if check(d ~= nil, 'a broken reference gets its E-link diagnostic') then
    check(d.lnum == n + 1, 'on the line typed (' .. tostring(d.lnum) .. ')')
    check(d.message:find('did you mean', 1, true) ~= nil, 'with its did-you-mean')
  end

  -- Complete the reference instead.
  vim.api.nvim_buf_set_lines(buf, n + 1, n + 2, false, { 'See [the entry](@/errors/pytorch/dataset-worker-fo' })
  local line = vim.api.nvim_buf_get_lines(buf, n + 1, n + 2, false)[1]
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = n + 1, character = #line } }
  local resp = client.request_sync('textDocument/completion', params, 10000, buf)
  local items = resp and resp.result and (resp.result.items or resp.result) or {}
  local chosen
  for _, item in ipairs(items) do
    if item.label == 'errors/pytorch/dataset-worker-fork-cuda.md' then
      chosen = item
    end
  end
  if check(chosen ~= nil, 'completion offers the entry (' .. #items .. ' items)') then
    vim.lsp.util.apply_text_edits({ chosen.textEdit }, buf, enc)
    local now = vim.api.nvim_buf_get_lines(buf, n + 1, n + 2, false)[1]
    vim.api.nvim_buf_set_lines(buf, n + 1, n + 2, false, { now .. ').' })
    now = vim.api.nvim_buf_get_lines(buf, n + 1, n + 2, false)[1]
    check(now == 'See [the entry](@/errors/pytorch/dataset-worker-fork-cuda.md).', 'the completed line: ' .. now)
  end
  check(vim.wait(20000, function() return has_code(buf, 'E-link') == nil end, 50), 'the diagnostic is cleared')

  -- Write errbook's reading of the second code block (read as working) as attributes on its
  -- fence. The first, read as failing, expects the error of an entry the article does not name:
  -- the editor's check infers no links, so it offers no action there.
  local fence
  local seen = 0
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:match('^```python') then
      seen = seen + 1
      if seen == 2 then
        fence = i - 1
      end
    end
  end
  local action
  if check(fence ~= nil, 'the article has a code block') then
    local at = { line = fence + 2, character = 0 }
    local ask = { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = { start = at, ['end'] = at }, context = { diagnostics = {} } }
    resp = client.request_sync('textDocument/codeAction', ask, 10000, buf)
    for _, a in ipairs(resp and resp.result or {}) do
      if a.title:find("Write errbook's reading as attributes", 1, true) then
        action = a
      end
    end
  end
  if check(action ~= nil, 'a code block offers to write its reading as attributes') then
    vim.lsp.util.apply_workspace_edit(action.edit, enc)
    local now = vim.api.nvim_buf_get_lines(buf, fence, fence + 1, false)[1]
    check(now == '```python ' .. action.title:match(': (.*)$'), 'the fence line: ' .. now)
    check(now:find(' run gpus=', 1, true) ~= nil and now:find('expect=', 1, true) == nil, 'declares what the text claims: it runs')
  end

  -- Rename the entry from the reference.
  local col = #'See [the entry](@/errors/pytorch/da'
  local rename = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = n + 1, character = col }, newName = 'pytorch/fork-cuda' }
  resp = client.request_sync('textDocument/rename', rename, 10000, buf)
  if check(resp and resp.result, 'rename answers a workspace edit') then
    vim.lsp.util.apply_workspace_edit(resp.result, enc)
    local moved = root .. '/content/errors/pytorch/fork-cuda.md'
    check(vim.fn.filereadable(moved) == 1 and vim.fn.filereadable(entry) == 0, 'the entry file is renamed')
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    check(text:find('@/errors/pytorch/fork-cuda.md', 1, true) ~= nil, 'the reference follows')
    -- Neovim saves the renamed entry (its ID line edited) before it moves the file.
    local etext = vim.fn.filereadable(moved) == 1 and table.concat(vim.fn.readfile(moved), '\n') or ''
    check(etext:find('`pytorch/fork-cuda`', 1, true) ~= nil, 'the ID line follows')
  end
  vim.lsp.stop_client(id)
end)
if not ok then
  check(false, 'the test ran: ' .. tostring(err))
end
finish()
