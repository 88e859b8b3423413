-- harness.nvim: judge the current buffer with `harness serve` — the harness's own judge
-- (CPU-time verdicts, memory limits, sandbox, checkers, interactive problems), seen from Neovim.
-- The plugin is a thin client of the published protocol (the book's "Serve protocol" page):
-- it sends JSON-RPC requests, one JSON object per line, and draws the events it is sent.
-- It never judges anything itself. Works with Neovim 0.7 and later (no vim.system).

local M = {}

local defaults = {
  -- The server: a command started once, spoken to on its stdin/stdout.
  cmd = { "harness", "serve" },
  -- A Unix socket to share one server between Neovim instances: connect to it, or, when
  -- nothing listens there, start `cmd` with `--socket socket` and connect then.
  socket = nil,
  -- Where the results of a task are shown.
  split = "botright 12split",
  -- Open the quickfix list when a task leaves entries in it.
  open_quickfix = true,
  -- Open a received problem's folder in a new tab page.
  open_received = true,
}

local config = vim.deepcopy(defaults)

-- One connection: the job (stdio) or channel (socket) and what is in flight on it.
local state = {
  channel = nil,
  next_id = 1,
  partial = "",
  pending = {}, -- request id -> callback(result, error)
  tasks = {}, -- task id -> { source, lines, buf, quickfix, finished, verdict }
  early = {}, -- task id -> events that came before the request's answer
  last_task = nil,
  last_seq = 0,
  log = {},
}

local function notify(message, level)
  vim.schedule(function()
    vim.notify("harness: " .. message, level or vim.log.levels.INFO)
  end)
end

local function value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

-- Writes one request; `on_result(result, error)` gets its answer.
local function request(method, params, on_result)
  if not state.channel then
    return false
  end
  local id = state.next_id
  state.next_id = id + 1
  state.pending[id] = on_result or function() end
  local line = vim.json.encode({ jsonrpc = "2.0", id = id, method = method, params = params or vim.empty_dict() })
  vim.fn.chansend(state.channel, line .. "\n")
  return true
end

-- The task's results buffer, made on first use, in the configured split.
local function results_buffer(task)
  if task.buf and vim.api.nvim_buf_is_valid(task.buf) then
    return task.buf
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(buf, "bufhidden", "hide")
  vim.api.nvim_buf_set_option(buf, "filetype", "harness")
  pcall(vim.api.nvim_buf_set_name, buf, "harness://" .. task.id)
  local current = vim.api.nvim_get_current_win()
  vim.cmd(config.split)
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_set_current_win(current)
  task.buf = buf
  return buf
end

local function show(task, line)
  if line ~= nil then
    table.insert(task.lines, line)
  end
  local buf = results_buffer(task)
  vim.api.nvim_buf_set_option(buf, "modifiable", true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, task.lines)
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
end

local function first_line(text)
  text = value(text) or ""
  return (text:gsub("\r?\n.*", ""))
end

local function set_quickfix(task)
  if #task.quickfix == 0 then
    return
  end
  vim.fn.setqflist({}, "r", { title = "harness: " .. task.title, items = task.quickfix })
  if config.open_quickfix then
    local current = vim.api.nvim_get_current_win()
    vim.cmd("copen")
    vim.api.nvim_set_current_win(current)
  end
end

local function ms(v)
  v = value(v)
  if v == nil then
    return ""
  end
  return tostring(v) .. " ms"
end

local function kib(v)
  v = value(v)
  if v == nil then
    return ""
  end
  if v >= 1024 then
    return string.format("%.1f MiB", v / 1024)
  end
  return tostring(v) .. " KiB"
end

-- What each kind of event adds to the results and the quickfix list.
local handlers = {}

handlers["task.started"] = function(task, event)
  local cases = value(event.cases)
  local limits = value(event.limits) or {}
  local problem = value(event.problem)
  show(task, string.format("judging %s%s%s%s", task.title,
    problem and (" on " .. tostring(problem)) or "",
    type(cases) == "table" and (", " .. #cases .. " cases") or "",
    value(limits.time_ms) and (", " .. ms(limits.time_ms) .. " limit") or ""))
end

handlers["compile.finished"] = function(task, event)
  if value(event.ok) == false then
    show(task, "compile error")
    for _, line in ipairs(vim.split(value(event.message) or "", "\n")) do
      if line ~= "" then
        show(task, "  " .. line)
      end
    end
  end
  for _, d in ipairs(value(event.diagnostics) or {}) do
    table.insert(task.quickfix, {
      filename = value(d.file) or task.source,
      lnum = value(d.line) or 1,
      col = value(d.column) or 1,
      text = value(d.text) or "",
      type = (value(d.severity) or "error"):sub(1, 1):upper(),
    })
  end
end

handlers["case.finished"] = function(task, event)
  local case = value(event.case) or value(event.name) or "?"
  local verdict = value(event.verdict) or "?"
  show(task, string.format("%-24s %-4s %9s %10s  %s", case, verdict, ms(event.time_ms),
    kib(event.memory_kib), first_line(event.reason)))
  if verdict ~= "AC" and verdict ~= "ran" then
    table.insert(task.quickfix, {
      filename = value(event.input_path) or task.source,
      lnum = 1,
      col = 1,
      text = string.format("case %s: %s %s", case, verdict, first_line(event.reason)),
      type = "E",
    })
    for _, part in ipairs({ "hint", "diff", "stderr" }) do
      local text = value(event[part])
      if type(text) == "string" and text ~= "" then
        for _, line in ipairs(vim.split(text, "\n", { trimempty = true })) do
          show(task, "    " .. line)
        end
      end
    end
  end
end

handlers["task.finished"] = function(task, event)
  local verdict = value(event.verdict)
  local line
  if value(event.cancelled) then
    line = "cancelled"
  elseif value(event.error) then
    line = "could not judge: " .. tostring(value(event.error))
  else
    line = "result: " .. tostring(verdict or "?")
  end
  local score = value(event.score)
  if score ~= nil then
    line = line .. "  score " .. tostring(score)
  end
  local counts = value(event.counts)
  if type(counts) == "table" then
    local parts = {}
    for code, n in pairs(counts) do
      table.insert(parts, code .. " " .. tostring(n))
    end
    table.sort(parts)
    if #parts > 0 then
      line = line .. "  (" .. table.concat(parts, ", ") .. ")"
    end
  end
  local stress = value(event.stress)
  if type(stress) == "table" then
    task.shrunk_at = nil
    if value(stress.found) then
      task.counterexample = { input = value(stress.input), answer = value(stress.expected) }
      line = string.format("stress: %s on this input (:HarnessSaveCase keeps it as a case)",
        tostring(value(stress.verdict) or value(stress.original_verdict) or "failed"))
      for _, part in ipairs({ "input", "expected", "output" }) do
        show(task, part .. ":")
        for _, l in ipairs(vim.split(value(stress[part]) or "", "\n", { trimempty = true })) do
          show(task, "    " .. l)
        end
      end
      table.insert(task.quickfix, {
        filename = task.source, lnum = 1, col = 1, type = "E",
        text = "stress: " .. first_line(value(stress.reason)) .. " on input " .. first_line(value(stress.input)),
      })
    else
      line = string.format("stress: no difference in %d inputs", value(stress.iterations) or 0)
    end
  end
  show(task, line)
  task.verdict = verdict or (value(event.cancelled) and "cancelled") or "error"
  -- A watched task's run ends without the task: it waits for the next save.
  task.finished = value(event.done) ~= false
  task.runs_done = (task.runs_done or 0) + 1
  set_quickfix(task)
end

handlers["stress.progress"] = function(task, event)
  local line = string.format("stress: %d inputs tried (seed %s)%s", value(event.iteration) or 0,
    tostring(value(event.seed) or "?"), value(event.failed) and (", failed: " .. event.failed) or "")
  -- One line that counts up, not a line per input.
  if task.progress_line then
    task.lines[task.progress_line] = line
    show(task, nil)
  else
    show(task, line)
    task.progress_line = #task.lines
  end
end

handlers["stress.shrunk"] = function(task, event)
  -- The smallest failing input so far: one block, redrawn as the shrinker finds smaller ones.
  task.progress_line = nil
  task.shrunk_at = task.shrunk_at or (#task.lines + 1)
  for i = #task.lines, task.shrunk_at, -1 do
    table.remove(task.lines, i)
  end
  show(task, string.format("smallest failing input so far (%s, %d bytes, %d candidates tried):",
    tostring(value(event.verdict) or "?"), value(event.input_bytes) or 0, value(event.tried) or 0))
  for _, line in ipairs(vim.split(value(event.input) or "", "\n", { trimempty = true })) do
    show(task, "    " .. line)
  end
end

handlers["problem.received"] = function(_, event)
  local problem = value(event.problem)
  local folder = value(event.folder)
  local solution = value(event.solution)
  notify("received " .. tostring(problem or "a problem") .. (value(event.title) and (" (" .. event.title .. ")") or "")
    .. (folder and (" into " .. folder) or ""))
  state.received = state.received or {}
  table.insert(state.received, event)
  if not config.open_received or not folder then
    return
  end
  -- A tab page in the problem's workspace, on its solution file when a template made one;
  -- :HarnessJudge there judges it on the problem received.
  vim.cmd("tabnew")
  vim.cmd("tcd " .. vim.fn.fnameescape(folder))
  if solution then
    vim.cmd("edit " .. vim.fn.fnameescape(solution))
    vim.b.harness_problem = problem
  else
    vim.cmd("edit " .. vim.fn.fnameescape(value(event.cases) or folder))
  end
end

local function generic(task, event)
  local fields = {}
  for key, v in pairs(event) do
    if key ~= "seq" and key ~= "task" and key ~= "kind" and type(v) ~= "table" and v ~= vim.NIL then
      table.insert(fields, key .. "=" .. tostring(v))
    end
  end
  table.sort(fields)
  show(task, event.kind .. " " .. table.concat(fields, " "))
end

local function on_event(event)
  if type(event.seq) == "number" and event.seq > state.last_seq then
    state.last_seq = event.seq
  end
  local id = value(event.task)
  if id == nil then
    if event.kind == "problem.received" then
      handlers["problem.received"](nil, event)
    end
    return
  end
  local task = state.tasks[id]
  if not task then
    -- The answer naming this task is still on its way: keep the event for it.
    state.early[id] = state.early[id] or {}
    table.insert(state.early[id], event)
    return
  end
  local run = value(event.run)
  if run ~= nil and task.run ~= nil and run ~= task.run then
    -- A watched task judges again after a save: its results and quickfix list start over.
    task.lines, task.quickfix = {}, {}
  end
  task.run = run or task.run
  local handler = handlers[event.kind]
  if handler then
    handler(task, event)
  else
    generic(task, event)
  end
end

local function on_line(line)
  if line == "" then
    return
  end
  table.insert(state.log, line)
  local ok, message = pcall(vim.json.decode, line)
  if not ok or type(message) ~= "table" then
    notify("the server sent a line that is not JSON: " .. line:sub(1, 200), vim.log.levels.WARN)
    return
  end
  if message.method == "event" then
    on_event(message.params or {})
  elseif message.id ~= nil and message.id ~= vim.NIL then
    local callback = state.pending[message.id]
    state.pending[message.id] = nil
    if callback then
      callback(value(message.result), value(message.error))
    end
  end
end

local function on_data(_, data)
  -- Neovim hands over a list of chunks split at newlines; the last one may be a partial line.
  if not data then
    return
  end
  data[1] = state.partial .. data[1]
  state.partial = table.remove(data)
  for _, line in ipairs(data) do
    on_line(line)
  end
end

local function on_exit(_, code)
  state.channel = nil
  for id, task in pairs(state.tasks) do
    if not task.finished then
      task.finished = true
      task.verdict = "server exited"
      show(task, "the server exited (code " .. tostring(code) .. ")")
    end
    state.tasks[id] = task
  end
end

local function connect_socket()
  local ok, channel = pcall(vim.fn.sockconnect, "pipe", config.socket, { on_data = on_data })
  if ok and channel > 0 then
    return channel
  end
  return nil
end

-- Starts the server, or connects to the shared one; says why not when it cannot.
local function ensure_server()
  if state.channel then
    return true
  end
  if config.socket then
    state.channel = connect_socket()
    if not state.channel then
      local cmd = vim.list_extend(vim.deepcopy(config.cmd), { "--socket", config.socket })
      local job = vim.fn.jobstart(cmd, { detach = true, on_stderr = function() end })
      if job <= 0 then
        notify("could not start " .. table.concat(cmd, " "), vim.log.levels.ERROR)
        return false
      end
      vim.wait(5000, function()
        state.channel = connect_socket()
        return state.channel ~= nil
      end, 50)
    end
    if not state.channel then
      notify("nothing listens on " .. config.socket, vim.log.levels.ERROR)
      return false
    end
  else
    local ok, job = pcall(vim.fn.jobstart, config.cmd, {
      on_stdout = on_data,
      on_stderr = function(_, data)
        for _, line in ipairs(data or {}) do
          if line ~= "" then
            table.insert(state.log, "stderr: " .. line)
          end
        end
      end,
      on_exit = on_exit,
    })
    if not ok or job <= 0 then
      notify("could not start " .. table.concat(config.cmd, " ") .. " (is harness on PATH?)", vim.log.levels.ERROR)
      return false
    end
    state.channel = job
  end
  request("initialize", { client = "harness.nvim" }, function(_, err)
    if err then
      notify("initialize failed: " .. tostring(value(err.message)), vim.log.levels.ERROR)
    end
  end)
  return true
end

-- Starts a task (`judge` or `stress`) for the current buffer's file.
local function start(method, params, title)
  if not ensure_server() then
    return
  end
  local source = params.source
  request(method, params, function(result, err)
    if err then
      notify(method .. " refused: " .. tostring(value(err.message)), vim.log.levels.ERROR)
      return
    end
    local id = result and value(result.task)
    if id == nil then
      return
    end
    local task = { id = id, source = source, title = title, lines = {}, quickfix = {}, finished = false }
    state.tasks[id] = task
    state.last_task = id
    for _, event in ipairs(state.early[id] or {}) do
      on_event(event)
    end
    state.early[id] = nil
  end)
end

local function current_source()
  local source = vim.api.nvim_buf_get_name(0)
  if source == "" then
    notify("the buffer has no file to judge", vim.log.levels.ERROR)
    return nil
  end
  if vim.bo.modified then
    vim.cmd("silent write")
  end
  return source
end

--- Judges the current buffer; `problem` (optional) as `harness judge PROBLEM FILE` takes it.
function M.judge(problem)
  local source = current_source()
  if not source then
    return
  end
  local params = { source = source }
  problem = (problem and problem ~= "") and problem or vim.b.harness_problem
  if problem then
    params.problem = problem
  end
  start("judge", params, vim.fn.fnamemodify(source, ":t"))
end

--- Judges the current buffer again each time it (or a case) is saved, until cancelled.
function M.watch(problem)
  local source = current_source()
  if not source then
    return
  end
  local params = { source = source, watch = true }
  if problem and problem ~= "" then
    params.problem = problem
  end
  start("judge", params, vim.fn.fnamemodify(source, ":t"))
end

--- Stress-tests the current buffer against `reference`, with `generator` when the problem
--- names none.
function M.stress(reference, generator)
  local source = current_source()
  if not source then
    return
  end
  if not reference or reference == "" then
    notify("usage: :HarnessStress REFERENCE [GENERATOR]", vim.log.levels.ERROR)
    return
  end
  local params = { source = source, reference = vim.fn.fnamemodify(reference, ":p") }
  if generator and generator ~= "" then
    params.generator = vim.fn.fnamemodify(generator, ":p")
  end
  start("stress", params, "stress " .. vim.fn.fnamemodify(source, ":t"))
end

--- Keeps the last stress counterexample as a case: in `folder`, or the `test/` folder beside
--- the source (where `:HarnessJudge` finds cases without a problem).
function M.save_case(folder)
  local task = state.tasks[state.last_task or -1]
  if not task or not task.counterexample then
    notify("no stress counterexample to keep", vim.log.levels.ERROR)
    return
  end
  folder = (folder and folder ~= "") and vim.fn.fnamemodify(folder, ":p")
    or (vim.fn.fnamemodify(task.source, ":h") .. "/test")
  request("cases.add", {
    folder = folder,
    input = task.counterexample.input,
    answer = task.counterexample.answer,
  }, function(result, err)
    if err then
      notify("the case was not added: " .. tostring(value(err.message)), vim.log.levels.ERROR)
    else
      notify("added " .. tostring(value(result and (result.input or result.name)) or "the case"))
      task.saved = result
    end
  end)
end

--- Cancels the last task started here.
function M.cancel()
  if state.last_task ~= nil then
    request("cancel", { task = state.last_task })
  end
end

--- Whether every task started here has finished (for scripts and tests).
function M.idle()
  for _, task in pairs(state.tasks) do
    if not task.finished then
      return false
    end
  end
  return next(state.pending) == nil
end

--- The tasks started here, with their lines and verdicts (for scripts and tests).
function M.tasks()
  return state.tasks
end

--- The problems received from Competitive Companion so far (their `problem.received` events).
function M.received()
  return state.received or {}
end

--- Every line the server sent, for when something looks wrong.
function M.log()
  return state.log
end

--- Starts the server (or connects to the shared one) before any task: for a session that
--- receives problems from Competitive Companion from the start. Whether it is up.
function M.connect()
  return ensure_server()
end

--- Stops the server this instance started.
function M.stop()
  if state.channel then
    request("shutdown", {})
  end
end

function M.setup(options)
  config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), options or {})
  vim.api.nvim_create_user_command("HarnessJudge", function(o)
    M.judge(o.args)
  end, { nargs = "?", desc = "Judge the current buffer with harness serve" })
  vim.api.nvim_create_user_command("HarnessWatch", function(o)
    M.watch(o.args)
  end, { nargs = "?", desc = "Judge the current buffer on every save" })
  vim.api.nvim_create_user_command("HarnessStress", function(o)
    M.stress(o.fargs[1], o.fargs[2])
  end, { nargs = "+", complete = "file", desc = "Stress-test the current buffer against a reference" })
  vim.api.nvim_create_user_command("HarnessSaveCase", function(o)
    M.save_case(o.args)
  end, { nargs = "?", complete = "dir", desc = "Keep the last stress counterexample as a case" })
  vim.api.nvim_create_user_command("HarnessCancel", M.cancel, { desc = "Cancel the last harness task" })
  vim.api.nvim_create_user_command("HarnessStop", M.stop, { desc = "Stop the harness server" })
  vim.api.nvim_create_autocmd("VimLeavePre", { callback = M.stop })
end

return M
