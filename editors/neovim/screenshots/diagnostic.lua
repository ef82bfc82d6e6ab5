-- Opens the diagnostic under the cursor, as the manual's screenshot shows it (take.sh).
vim.opt.termguicolors = true
vim.opt.number = true
vim.cmd("highlight NormalFloat guibg=#313244 guifg=#e0e0e0")
vim.diagnostic.config({ virtual_text = true })
local client = vim.lsp.start_client({ name = "takeaway", cmd = { vim.env.TAKEAWAY, "lsp" }, root_dir = vim.fn.getcwd() })
vim.lsp.buf_attach_client(0, client)
vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 50)
vim.api.nvim_win_set_cursor(0, { 5, 15 })
vim.defer_fn(function() vim.diagnostic.open_float() end, 300)
