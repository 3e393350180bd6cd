"use strict";
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
 *               {"t":"kill","id":1}
 * here → host:  {"t":"ready"}  {"t":"spawned","id":1}  {"t":"out","id":1,"s":1,"d":"text"}
 *               {"t":"exit","id":1,"code":0,"signal":null,"trunc":[false,false]}
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
const chan = process.versions.bun
  ? net.connect({ fd: 3 })
  : new net.Socket({ fd: 3, readable: true, writable: true });

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
  const { id, cmd, cwd, env, bg } = msg;
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
      stdio: ["ignore", "pipe", "pipe"],
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
  [child.stdout, child.stderr].forEach((stream, i) => {
    const decoder = new StringDecoder("utf8");
    let used = 0;
    stream.on("data", (buf) => {
      if (used >= CAP) return void (trunc[i] = true); // keep draining so the command is not blocked
      if (used + buf.length > CAP) {
        buf = buf.subarray(0, CAP - used);
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
