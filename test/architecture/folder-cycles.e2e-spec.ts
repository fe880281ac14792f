import { join } from 'node:path';
import { describeCycle, folderCycles, readFolderGraph, type FolderEdge } from './folder-graph.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

const edge = (from: string, to: string): FolderEdge => ({ from, to, example: `${from}/x.ts imports ../${to}/y.js` });

describe('folder cycles', () => {
  it('finds a direct cycle and a longer chain, naming each step', () => {
    const edges = [edge('a', 'b'), edge('b', 'a'), edge('c', 'd'), edge('d', 'e'), edge('e', 'c'), edge('main.ts', 'a')];
    const cycles = folderCycles(edges);
    expect(cycles).toEqual(expect.arrayContaining([['a', 'b'], ['c', 'd', 'e']]));
    expect(cycles).toHaveLength(2);
    expect(describeCycle(['a', 'b'], edges)).toBe('a -> b -> a\n  a -> b (a/x.ts imports ../b/y.js)\n  b -> a (b/x.ts imports ../a/y.js)');
  });

  it('finds none in a layered graph', () => {
    expect(folderCycles([edge('main.ts', 'app'), edge('app', 'queue'), edge('app', 'common'), edge('queue', 'common')])).toEqual([]);
  });

  it('src/ has no cycle between its top-level folders (a top-level file is one of its own)', () => {
    const edges = readFolderGraph(SRC);
    const found = folderCycles(edges).map((cycle) => describeCycle(cycle, edges));
    expect(found).toEqual([]);
  });
});
