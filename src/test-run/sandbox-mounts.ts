// The sandbox's file system, made inside fresh mount, PID, IPC, UTS and network namespaces (the
// `unshare` that starts this process made them; mounts propagate nowhere): an overlay of the host's
// root (and of each disk file system mounted below it) with its upper directory on a tmpfs, a fresh
// /proc with /proc/sys read-only (the kernel is the host's), a read-only sysfs, the host's /dev with
// a private /dev/shm, and private /run, /tmp, /var/lib/govern and /var/cache/govern (docs/test.md).
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../shared/process.js';
import type { SandboxSpec } from './spec.js';
import { workFiles } from './spec.js';

/** File systems whose files the sandbox shows through an overlay; others (tmpfs, network) show empty. */
const DISK = new Set(['ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'f2fs', 'zfs', 'jfs', 'reiserfs', 'overlay', 'vfat', 'exfat']);
/** Places the sandbox replaces with its own, never overlaid. */
const PRIVATE = ['/proc', '/sys', '/dev', '/run', '/tmp', '/var/lib/govern', '/var/cache/govern'];

export class SandboxError extends Error {}

export interface SandboxRoot {
  root: string;
  /** Each overlay's upper directory and the path it shows, for --keep. */
  uppers: { upper: string; at: string }[];
}

const under = (p: string, dir: string) => p === dir || p.startsWith(dir === '/' ? '/' : dir + '/');

async function mount(args: string[]): Promise<void> {
  const r = await runCommand('mount', args, { timeoutMs: 60_000 });
  if (r.code !== 0) throw new SandboxError(`mount ${args.join(' ')}: ${(r.stderr || r.spawnError?.message || `exit ${r.code}`).trim()}`);
}

async function readOnlyBind(from: string, to: string): Promise<void> {
  await mount(['--bind', from, to]);
  await mount(['-o', 'remount,bind,ro', to]);
}

/** The disk file systems mounted below / that the sandbox overlays too, parents first. */
export function diskMounts(mountinfo: string, work: string): string[] {
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (right === undefined) continue;
    const point = left.split(' ')[4]?.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const fstype = right.split(' ')[0];
    if (point === undefined || point === '/' || !DISK.has(fstype)) continue;
    // An overlay's options cannot name a directory with these characters: it shows empty instead.
    if (/[,:\\\n]/.test(point) || PRIVATE.some((p) => under(point, p)) || under(point, work) || under(work, point)) continue;
    if (!points.includes(point)) points.push(point);
  }
  return points;
}

export async function makeSandboxRoot(spec: SandboxSpec): Promise<SandboxRoot> {
  const scratch = workFiles(spec.work).scratch;
  await mount(['-t', 'tmpfs', '-o', 'mode=0700', 'govern-test', scratch]);
  const root = path.join(scratch, 'root');
  const uppers: SandboxRoot['uppers'] = [];
  const overlay = async (lower: string, at: string) => {
    const upper = path.join(scratch, `upper-${uppers.length}`);
    const work = path.join(scratch, `work-${uppers.length}`);
    fs.mkdirSync(upper);
    fs.mkdirSync(work);
    const target = path.join(root, at);
    fs.mkdirSync(target, { recursive: true });
    await mount(['-t', 'overlay', 'govern-test', '-o', `lowerdir=${lower},upperdir=${upper},workdir=${work}`, target]);
    uppers.push({ upper, at });
  };
  fs.mkdirSync(root);
  await overlay(spec.base ?? '/', '/');
  // Over a base, the base alone: the host's other file systems are not its.
  const points = spec.base !== undefined ? [] : diskMounts(fs.readFileSync('/proc/self/mountinfo', 'utf8'), spec.work);
  for (const point of points) {
    if (fs.existsSync(point)) await overlay(point, point);
  }
  skipManIndex(root);
  const inside = (p: string) => {
    const target = path.join(root, p);
    fs.mkdirSync(target, { recursive: true });
    return target;
  };
  await mount(['-t', 'proc', 'proc', inside('/proc')]);
  for (const p of ['/proc/sys', '/proc/sysrq-trigger']) {
    if (fs.existsSync(path.join(root, p))) await readOnlyBind(path.join(root, p), path.join(root, p));
  }
  await mount(['-t', 'sysfs', '-o', 'ro,nosuid,nodev,noexec', 'sysfs', inside('/sys')]);
  await mount(['--rbind', '/dev', inside('/dev')]);
  // /dev is the host's: nothing is created in it, a private /dev/shm only where the host has one.
  if (fs.existsSync(path.join(root, 'dev', 'shm'))) await mount(['-t', 'tmpfs', '-o', 'mode=1777,nosuid,nodev', 'govern-test', path.join(root, 'dev', 'shm')]);
  await mount(['-t', 'tmpfs', '-o', 'mode=0755,nosuid,nodev', 'govern-test', inside('/run')]);
  fs.mkdirSync(path.join(root, 'run', 'lock'), { mode: 0o1777 });
  await mount(['-t', 'tmpfs', '-o', 'mode=1777,nosuid,nodev', 'govern-test', inside('/tmp')]);
  for (const p of ['/var/lib/govern', '/var/cache/govern']) await mount(['-t', 'tmpfs', '-o', 'mode=0755', 'govern-test', inside(p)]);
  // The work directory is shared (spec and result); the tree and, where the sandbox hides them,
  // govern and Node are the host's, read-only.
  await mount(['--bind', spec.work, inside(spec.work)]);
  await readOnlyBind(spec.treeRoot, inside(spec.treeRoot));
  for (const dir of [spec.governRoot, path.dirname(spec.node)]) {
    if (spec.hostFiles === undefined && PRIVATE.some((p) => under(dir, p))) await readOnlyBind(dir, inside(dir));
  }
  for (const p of [...(spec.hostFiles ?? []), ...(spec.identity !== undefined ? [spec.identity] : [])]) await readOnlyBind(p, placeFor(root, p));
  // Loopback only; a sandbox without `ip` has it down, and a check of 127.0.0.1 says so.
  if (spec.network === 'host') return { root, uppers };
  const lo = await runCommand('ip', ['link', 'set', 'lo', 'up'], { timeoutMs: 30_000 });
  if (lo.code !== 0) process.stderr.write(`govern test: the sandbox's loopback is down: ip link set lo up: ${(lo.stderr || lo.spawnError?.message || '').trim()}\n`);
  return { root, uppers };
}

/**
 * Debian's man-db rebuilds its index in a trigger after every package install (seconds of a run, for
 * an index the sandbox throws away) only while this flag file exists: the sandbox's copy goes (docs/test.md).
 */
function skipManIndex(root: string): void {
  fs.rmSync(path.join(root, 'var', 'lib', 'man-db', 'auto-update'), { force: true });
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a host file or directory is shown over a base: made in the overlay (an empty file for a file)
 * when missing, never through a link of the base that leads out of it.
 */
function placeFor(root: string, p: string): string {
  const target = path.join(root, p);
  let existing = path.dirname(target);
  while (!lexists(existing)) existing = path.dirname(existing);
  const real = fs.realpathSync(existing);
  if (!under(real, fs.realpathSync(root))) throw new SandboxError(`the base's ${path.dirname(p)} leads out of it (to ${real}): ${p} cannot be shown in it`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (fs.statSync(p).isDirectory()) fs.mkdirSync(target, { recursive: true });
  else if (!fs.existsSync(target)) fs.writeFileSync(target, '', { mode: 0o644 });
  return target;
}

/** --keep: each overlay's changed files copied to the work directory, at the paths they show. */
export async function keepChanges(sandbox: SandboxRoot, changed: string): Promise<void> {
  for (const { upper, at } of sandbox.uppers) {
    const to = path.join(changed, at);
    fs.mkdirSync(to, { recursive: true });
    const r = await runCommand('cp', ['-a', '--', `${upper}/.`, to], { timeoutMs: 600_000 });
    if (r.code !== 0) throw new SandboxError(`cannot keep the sandbox's changes in ${to}: ${r.stderr.trim()}`);
  }
}
