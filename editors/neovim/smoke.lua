-- The CI's smoke test of `takeaway lsp` in Neovim's own client (lsp/tests/neovim.rs runs it):
-- attach the server to the file Neovim opened, wait for its diagnostics, write them to $OUT
-- as "line:column:code:message" (from 0), and quit. Written for Neovim 0.7 (Debian 12's), whose
-- client is started with vim.lsp.start_client; later versions also have vim.lsp.start.
local client = vim.lsp.start_client({
  name = "takeaway",
  cmd = { vim.env.TAKEAWAY, "lsp" },
  root_dir = vim.fn.getcwd(),
})
vim.lsp.buf_attach_client(0, client)
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
  local message = string.gsub(d.message, "\n", " ")
  table.insert(lines, string.format("%d:%d:%s:%s", d.lnum, d.col, code, message))
end
vim.fn.writefile(lines, vim.env.OUT)
vim.cmd("qa!")
