/**
 * The seccomp filter every sandboxed process runs under (bwrap `--seccomp FD`), assembled here as classic
 * BPF so no compiler or libseccomp is needed at run time. It refuses (EPERM) the system calls that expose the
 * most kernel to an unprivileged user and that no app build needs: ptrace and cross-process memory access,
 * keyrings, bpf, perf events, userfaultfd, io_uring, module and kexec loading, new mount API, setns,
 * pivot_root/chroot, swap, reboot, clock setting, handle-based opens and the like. A process of a foreign
 * ABI (i386 `int 0x80` or x32 on x86_64) is killed, since its system call numbers would slip past the list.
 *
 * User namespaces: `clone` with CLONE_NEWUSER is refused, and `unshare`/`mount` are allowed only with the
 * exact arguments of the supervisor's per-command `unshare --user --pid --mount-proc`. The real barrier is the
 * kernel's: inside that per-command namespace the supervisor sets `user.max_user_namespaces` to 0 before the
 * command runs, so the command cannot create one by any call (`unshare -r id` fails). `clone3` is allowed:
 * its flags live in memory BPF cannot read, and answering it ENOSYS made Bun's spawn abort under a fork bomb.
 *
 * @example
 * fs.writeFileSync(file, seccompProgram()); // then: bwrap --seccomp 9 … with the file open on fd 9
 */
import { arch } from "node:process";

const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;

const CLONE_NEWNS = 0x00020000;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWPID = 0x20000000;
/** `unshare --user --pid --mount-proc` asks for exactly these, in one call. */
const SUPERVISOR_UNSHARE = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID;
/** …and then mounts with exactly these flags: `/` made private, a fresh /proc. */
const MS_NOSUID = 0x2;
const MS_NODEV = 0x4;
const MS_NOEXEC = 0x8;
const MS_REC = 0x4000;
const MS_PRIVATE = 0x40000;
const SUPERVISOR_MOUNTS = [MS_REC | MS_PRIVATE, MS_NOSUID | MS_NODEV | MS_NOEXEC];

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i (low 32 bits first, little-endian).
const NR = 0;
const ARCH = 4;
const arg = (i: number) => 16 + 8 * i;

type Table = { audit: number; x32: boolean; clone: number; unshare: number; mount: number; denied: number[] };

// Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl; asm-generic for arm64).
const TABLES: Record<string, Table> = {
  x64: {
    audit: 0xc000003e,
    x32: true,
    clone: 56,
    unshare: 272,
    mount: 165,
    // ptrace, process_vm_readv/writev, kcmp, keyctl, add_key, request_key, bpf, perf_event_open, userfaultfd,
    // io_uring_setup/enter/register, kexec_load, kexec_file_load, init/finit/delete_module, open_by_handle_at,
    // name_to_handle_at, lookup_dcookie, quotactl, quotactl_fd, acct, swapon, swapoff, reboot, syslog,
    // settimeofday, clock_settime, clock_adjtime, adjtimex, pivot_root, chroot, umount2, setns, fsopen,
    // fsconfig, fsmount, fspick, move_mount, open_tree, mount_setattr, iopl, ioperm, uselib, vhangup,
    // create_module, get_kernel_syms, query_module, nfsservctl, _sysctl
    denied: [
      101, 310, 311, 312, 250, 248, 249, 321, 298, 323, 425, 426, 427, 246, 320, 175, 313, 176, 304, 303, 212, 179, 443, 163, 167, 168, 169, 103, 164, 227, 305,
      159, 155, 161, 166, 308, 430, 431, 432, 433, 429, 428, 442, 172, 173, 134, 153, 174, 177, 178, 180, 156,
    ],
  },
  arm64: {
    audit: 0xc00000b7,
    x32: false,
    clone: 220,
    unshare: 97,
    mount: 40,
    // The same list in the generic numbering (no iopl, ioperm, uselib, create_module… on arm64).
    denied: [
      117, 270, 271, 272, 219, 217, 218, 280, 241, 282, 425, 426, 427, 104, 294, 105, 273, 106, 265, 264, 18, 60, 443, 89, 224, 225, 142, 116, 170, 112, 266,
      171, 41, 51, 39, 268, 430, 431, 432, 433, 429, 428, 442, 58,
    ],
  },
};

/** Whether this machine's architecture has a filter (x86_64 and arm64). */
export const seccompSupported = (machine = arch) => machine in TABLES;

/** The compiled program (struct sock_filter[]), as bwrap reads it from its `--seccomp` fd. */
export function seccompProgram(machine = arch): Uint8Array {
  const t = TABLES[machine];
  if (!t) throw new Error(`no seccomp filter for ${machine}`);
  const insns: [code: number, jt: number, jf: number, k: number][] = [];
  const ld = (offset: number) => insns.push([0x20, 0, 0, offset]); // BPF_LD | BPF_W | BPF_ABS
  const ret = (k: number) => insns.push([0x06, 0, 0, k]); // BPF_RET | BPF_K
  const jeq = (k: number, jt: number, jf: number) => insns.push([0x15, jt, jf, k]); // BPF_JMP | BPF_JEQ | BPF_K
  const jset = (k: number, jt: number, jf: number) => insns.push([0x45, jt, jf, k]); // BPF_JMP | BPF_JSET | BPF_K
  const errno = (e: number) => SECCOMP_RET_ERRNO | e;
  /** `body` runs when the system call is `nr` and must end in a return; otherwise it is jumped over. */
  const when = (nr: number, body: () => void) => {
    const at = insns.length;
    jeq(nr, 0, 0);
    body();
    insns[at]![2] = insns.length - at - 1;
  };

  ld(ARCH);
  jeq(t.audit, 1, 0);
  ret(SECCOMP_RET_KILL_PROCESS);
  ld(NR);
  if (t.x32) {
    insns.push([0x35, 0, 1, 0x40000000]); // BPF_JGE: an x32 system call number
    ret(SECCOMP_RET_KILL_PROCESS);
  }
  for (const nr of t.denied) when(nr, () => ret(errno(EPERM)));
  when(t.clone, () => {
    ld(arg(0));
    jset(CLONE_NEWUSER, 0, 1);
    ret(errno(EPERM));
    ret(SECCOMP_RET_ALLOW);
  });
  when(t.unshare, () => {
    ld(arg(0));
    jeq(SUPERVISOR_UNSHARE, 2, 0);
    jset(CLONE_NEWUSER, 0, 1);
    ret(errno(EPERM));
    ret(SECCOMP_RET_ALLOW);
  });
  when(t.mount, () => {
    ld(arg(3));
    jeq(SUPERVISOR_MOUNTS[0]!, 2, 0);
    jeq(SUPERVISOR_MOUNTS[1]!, 1, 0);
    ret(errno(EPERM));
    ret(SECCOMP_RET_ALLOW);
  });
  ret(SECCOMP_RET_ALLOW);

  const out = new Uint8Array(insns.length * 8);
  const view = new DataView(out.buffer);
  insns.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return out;
}
