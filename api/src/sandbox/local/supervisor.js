/**
 * The sandbox's first process: plain JavaScript run INSIDE bubblewrap (under /usr/bin/bun, else node), as
 * the sandbox's own uid. It takes commands over fd 3, a Unix socket the host passed in (never a path the
 * sandbox could replace), and streams output and exit codes back as newline-delimited JSON.
 *
 * Each command runs in its own pid namespace (`unshare --pid --fork --kill-child`), so killing it also
 * kills whatever it double-forked or `setsid`-ed away. Output is capped per command and stream; when the
 * host reads slowly, children are paused (backpressure) instead of buffering here.
 *
 * host → here:  {"t":"run","id":1,"cmd":"npm i","cwd":"/home/user/project","env":{…},"bg":false}
 *               {"t":"kill","id":1}  {"t":"signal","id":1,"sig":"SIGTERM"}  {"t":"ports","id":1,"q":7}
 *               (`"cap":0` in a run: no output cap, for long-lived named processes the host keeps a ring of)
 * here → host:  {"t":"ready"}  {"t":"spawned","id":1}  {"t":"out","id":1,"s":1,"d":"text"}
 *               {"t":"exit","id":1,"code":0,"signal":null,"trunc":[false,false]}  {"t":"ports","id":1,"q":7,"ports":[5173]}
 *
 * A raw command (the interactive terminal's helper) has a stdin and binary output, uncapped (it lives as
 * long as its terminal): "raw":true in "run"; {"t":"in","id":1,"b":"<base64>"} writes to its stdin and
 * {"t":"in","id":1,"end":true} closes it; its stdout arrives as {"t":"out","id":1,"s":1,"b":"<base64>"}.
 */
const net = require("node:net");
const fs = require("node:fs");
const { spawn } = require("node:child_process");
const { StringDecoder } = require("node:string_decoder");

const CAP = 1024 * 1024;
const uid = process.getuid();
// Processes one command may run, below the sandbox's own limit: a fork bomb in a command then fails its own
// forks while the supervisor still has room to spawn (and Bun's spawn aborts when it has none).
const commandProcs = Number(process.env.SANDBOX_COMMAND_PROCS) || 0;
const gid = process.getgid();
/** id → { child, paused } */
const running = new Map();

// Bun adopts an inherited socket through connect({ fd }); Node through the Socket constructor.
const chan = process.versions.bun ? net.connect({ fd: 3 }) : new net.Socket({ fd: 3, readable: true, writable: true });

let writable = true;
function send(msg) {
  if (!chan.write(JSON.stringify(msg) + "\n") && writable) {
    writable = false;
    for (const r of running.values()) pauseStreams(r.child, true);
  }
}
chan.on("drain", () => {
  writable = true;
  for (const r of running.values()) pauseStreams(r.child, false);
});

function pauseStreams(child, pause) {
  for (const s of [child.stdout, child.stderr]) if (s) pause ? s.pause() : s.resume();
}

function run(msg) {
  const { id, cmd, cwd, env, bg, raw } = msg;
  const cap = msg.cap === 0 ? Infinity : CAP;
  if (running.has(id)) return;
  try {
    if (!fs.statSync(cwd).isDirectory()) throw new Error("not a directory");
  } catch {
    send({ t: "out", id, s: 2, d: `cwd not found: ${cwd}\n` });
    send({ t: "exit", id, code: 1, signal: null, trunc: [false, false] });
    return;
  }
  // --keep-caps: the namespace's pid 1 keeps its capabilities in the new user namespace just long enough to
  // forbid further user namespaces in it (user.max_user_namespaces = 0), then runs the command without any.
  const args = ["--user", `--map-user=${uid}`, `--map-group=${gid}`, "--keep-caps", "--pid", "--fork", "--kill-child", "--mount-proc"];
  let child;
  try {
    // The namespace's pid 1 is a small shell that runs the command (in bash) as its child: unshare cannot
    // report a pid 1 killed by a signal (an OOM kill would read as exit 1); a shell reports 128+signal.
    const init =
      "echo 0 > /proc/sys/user/max_user_namespaces || { echo 'sandbox: could not forbid nested user namespaces; not running' >&2; exit 126; }; " +
      (commandProcs > 0 ? `ulimit -p ${commandProcs}; ` : "") +
      '/usr/bin/setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all /bin/bash -c "$1"; exit $?';
    child = spawn("/usr/bin/unshare", [...args, "/bin/sh", "-c", init, "sandbox", cmd], {
      cwd,
      env,
      stdio: [raw ? "pipe" : "ignore", "pipe", "pipe"],
    });
  } catch (err) {
    send({ t: "out", id, s: 2, d: `could not start: ${err && err.message}\n` });
    send({ t: "exit", id, code: 126, signal: null, trunc: [false, false] });
    return;
  }
  const trunc = [false, false];
  const entry = { child };
  running.set(id, entry);
  if (!writable) pauseStreams(child, true);
  if (raw) child.stdin.on("error", () => {}); // it ended: its exit report follows
  [child.stdout, child.stderr].forEach((stream, i) => {
    if (raw && i === 0) return void stream.on("data", (buf) => send({ t: "out", id, s: 1, b: buf.toString("base64") }));
    const decoder = new StringDecoder("utf8");
    let used = 0;
    stream.on("data", (buf) => {
      if (used >= cap) return void (trunc[i] = true); // keep draining so the command is not blocked
      if (used + buf.length > cap) {
        buf = buf.subarray(0, cap - used);
        trunc[i] = true;
      }
      used += buf.length;
      const d = decoder.write(buf);
      if (d) send({ t: "out", id, s: i + 1, d });
    });
  });
  let spawned = false;
  child.on("spawn", () => {
    spawned = true;
    if (bg) send({ t: "spawned", id });
  });
  child.on("error", (err) => {
    if (spawned) return;
    running.delete(id);
    send({ t: "out", id, s: 2, d: `could not start: ${err.message}\n` });
    send({ t: "exit", id, code: 126, signal: null, trunc });
  });
  child.on("close", (code, signal) => {
    running.delete(id);
    send({ t: "exit", id, code, signal, trunc });
  });
}

/** SIGKILL the namespace's pid 1 (ends every process in it) and then unshare itself. */
function kill(id) {
  const entry = running.get(id);
  if (!entry || !entry.child.pid) return;
  const pid = entry.child.pid;
  try {
    const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
    for (const k of kids) if (k) process.kill(Number(k), "SIGKILL");
  } catch {}
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

/** Input for a raw command's stdin. */
function input(msg) {
  const entry = running.get(msg.id);
  const stdin = entry && entry.child.stdin;
  if (!stdin || stdin.destroyed) return;
  if (msg.end) return void stdin.end();
  if (typeof msg.b === "string") stdin.write(Buffer.from(msg.b, "base64"));
}

/** Every process below `pid` (its children, theirs, …), `pid` itself not included. */
function descendants(pid) {
  const out = [];
  const queue = [pid];
  while (queue.length && out.length < 10000) {
    const p = queue.shift();
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {}
    for (const tid of tasks) {
      try {
        for (const k of fs.readFileSync(`/proc/${p}/task/${tid}/children`, "utf8").trim().split(/\s+/)) {
          if (k) {
            out.push(Number(k));
            queue.push(Number(k));
          }
        }
      } catch {}
    }
  }
  return out;
}

/**
 * Sends `sig` to every process of a command except its namespace's pid 1 (the small shell, which would
 * ignore it): the command then ends itself, and with it the shell and so the namespace, strays included.
 */
function signalTree(id, sig) {
  const entry = running.get(id);
  if (!entry || !entry.child.pid) return;
  if (sig === "SIGKILL") return kill(id);
  const inits = descendants(entry.child.pid).slice(0, 1);
  for (const init of inits) {
    for (const p of descendants(init)) {
      try {
        process.kill(p, sig);
      } catch {}
    }
  }
}

/** TCP ports the processes of a command listen on: their socket inodes matched against /proc/net/tcp{,6}. */
function ports(id) {
  const entry = running.get(id);
  if (!entry || !entry.child.pid) return [];
  const inodes = new Set();
  for (const p of descendants(entry.child.pid)) {
    let fds = [];
    try {
      fds = fs.readdirSync(`/proc/${p}/fd`);
    } catch {}
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${p}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {}
    }
  }
  const found = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let table = "";
    try {
      table = fs.readFileSync(file, "utf8");
    } catch {}
    for (const line of table.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] !== "0A" || !inodes.has(cols[9])) continue; // 0A = LISTEN
      const port = parseInt(cols[1].split(":").pop(), 16);
      if (port && !found.includes(port)) found.push(port);
    }
  }
  return found;
}

let buffered = "";
chan.setEncoding("utf8");
chan.on("data", (data) => {
  buffered += data;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg.t === "run") run(msg);
    else if (msg.t === "kill") kill(msg.id);
    else if (msg.t === "in") input(msg);
    else if (msg.t === "signal" && (msg.sig === "SIGTERM" || msg.sig === "SIGKILL" || msg.sig === "SIGINT")) signalTree(msg.id, msg.sig);
    else if (msg.t === "ports") send({ t: "ports", id: msg.id, q: msg.q, ports: ports(msg.id) });
  }
});

function exitAll() {
  for (const id of running.keys()) kill(id);
  process.exit(0);
}
chan.on("end", exitAll);
chan.on("close", exitAll);
chan.on("error", exitAll);

send({ t: "ready" });

// The project's database: 127.0.0.1:5432 here (what DATABASE_URL names) leads to the host's gateway for this
// project only, through a socket in a folder the host bound in read-only (so nothing here can replace it).
// Bound first, before any command runs, so no process of the sandbox can take the port.
const DB_SOCKET = "/opt/project-db/.s.PGSQL.5432";
if (fs.existsSync("/opt/project-db")) {
  const db = net.createServer((client) => {
    const upstream = net.connect(DB_SOCKET);
    client.setNoDelay(true);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  db.on("error", () => {});
  db.listen(5432, "127.0.0.1");
}
