-- Opens a hover where $LINE and $COL put the cursor (editors/neovim/screenshots/take.sh).
vim.opt.termguicolors = true
vim.opt.number = true
vim.cmd("highlight NormalFloat guibg=#313244 guifg=#e0e0e0")
local client = vim.lsp.start_client({ name = "takeaway", cmd = { vim.env.TAKEAWAY, "lsp" }, root_dir = vim.fn.getcwd() })
vim.lsp.buf_attach_client(0, client)
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.LINE), tonumber(vim.env.COL) })
vim.defer_fn(function() vim.lsp.buf.hover() end, 800)
