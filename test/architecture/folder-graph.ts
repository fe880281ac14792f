import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Which top-level parts of src/ import which: `worker -> queue` (a top-level file is a part of its own, `main.ts`). */
export type FolderGraph = Map<string, Set<string>>;

/** One import from a file of one part into another, kept to name the edge in a failure. */
export interface FolderEdge {
  from: string;
  to: string;
  /** The first file found making it, and what it imports. */
  example: string;
}

/**
 * The folder graph of `srcDir`, read with the TypeScript compiler's own import scanner
 * (ts.preProcessFile: every `import`, `import type`, `export … from` and `import()`, without a
 * type check). Only relative imports count: packages are not parts of src/.
 */
export function readFolderGraph(srcDir: string, skip: readonly string[] = ['generated']): FolderEdge[] {
  const root = resolve(srcDir);
  const edges = new Map<string, FolderEdge>();
  for (const file of sourceFiles(root, skip.map((s) => join(root, s)))) {
    const from = partOf(root, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(root + sep)) continue;
      const to = partOf(root, target);
      if (to === from || edges.has(`${from}>${to}`)) continue;
      edges.set(`${from}>${to}`, { from, to, example: `${relative(root, file)} imports ${fileName}` });
    }
  }
  return [...edges.values()];
}

/**
 * Every cycle among the parts, each once, as the parts in order (`['a', 'b']`: a imports b,
 * b imports a). Found per strongly connected component (Tarjan), then one shortest cycle
 * through each part of it, so a failure names a real chain rather than a whole tangle.
 */
export function folderCycles(edges: readonly FolderEdge[]): string[][] {
  const graph: FolderGraph = new Map();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)!.add(to);
  }
  const cycles = new Map<string, string[]>();
  for (const component of stronglyConnected(graph)) {
    if (component.length < 2) continue;
    const members = new Set(component);
    for (const start of component) {
      const cycle = shortestCycle(graph, start, members);
      if (!cycle) continue;
      const first = cycle.indexOf([...cycle].sort()[0]);
      const canonical = [...cycle.slice(first), ...cycle.slice(0, first)];
      cycles.set(canonical.join(' -> '), canonical);
    }
  }
  return [...cycles.values()];
}

/** `a -> b -> a`, with the file that makes each step. */
export function describeCycle(cycle: readonly string[], edges: readonly FolderEdge[]): string {
  const steps = cycle.map((from, i) => {
    const to = cycle[(i + 1) % cycle.length];
    return `  ${from} -> ${to} (${edges.find((e) => e.from === from && e.to === to)?.example})`;
  });
  return `${[...cycle, cycle[0]].join(' -> ')}\n${steps.join('\n')}`;
}

function partOf(root: string, file: string): string {
  return relative(root, file).split(sep)[0];
}

function* sourceFiles(dir: string, skip: readonly string[]): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.includes(path)) continue;
    if (entry.isDirectory()) yield* sourceFiles(path, skip);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function stronglyConnected(graph: FolderGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)!) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) !== indices.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    components.push(component);
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

/** Breadth first from `start` back to it, within one component. */
function shortestCycle(graph: FolderGraph, start: string, members: Set<string>): string[] | null {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node)!) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return path;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}
