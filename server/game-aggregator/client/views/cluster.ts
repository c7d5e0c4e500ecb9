/**
 * Sugar Blast's view: a 6×5 grid of candies; each cascade step lights its clusters, bursts them
 * and drops the next grid in, and the win counts up step by step.
 */
import { CANDIES, CLUSTER_COLUMNS, CLUSTER_ROWS, type ClusterView } from '../../titles/cluster';
import { symbolSvg } from '../art';
import type { ClientView, ViewContext } from '../view';
import { html } from '../wait';

export function clusterView(context: ViewContext): ClientView {
  const grid = html(`<div class="cluster" role="grid"></div>`);
  context.stage.append(grid);
  const randomCandy = () => CANDIES[Math.floor(Math.random() * CANDIES.length)]!.id;

  function draw(columns: string[][], isDropping: boolean) {
    grid.innerHTML = Array.from({ length: CLUSTER_ROWS }, (_, row) =>
      Array.from({ length: CLUSTER_COLUMNS }, (_, column) => {
        const id = columns[column]![row]!;
        return `<div class="cluster__cell${isDropping ? ' is-dropping' : ''}" data-cell="${column},${row}" data-symbol="${id}" role="img" aria-label="${id}">${symbolSvg(id)}</div>`;
      }).join(''),
    ).join('');
  }
  draw(
    Array.from({ length: CLUSTER_COLUMNS }, () => Array.from({ length: CLUSTER_ROWS }, randomCandy)),
    false,
  );

  return {
    actionKey: 'spin',
    stakes: [20n, 50n, 100n, 200n, 500n, 1000n, 2000n, 5000n, 10000n],
    input: (stake) => ({ stake: stake.toString() }),
    async present(answer) {
      const view = answer.round.view as ClusterView;
      let total = 0n;
      for (const [index, step] of view.steps.entries()) {
        draw(step.grid, !context.reducedMotion);
        await context.pause(index === 0 ? 550 : 450);
        if (step.clusters.length === 0) break;
        for (const cluster of step.clusters)
          for (const [column, row] of cluster.cells)
            grid.querySelector(`[data-cell="${column},${row}"]`)?.classList.add('is-winning');
        total += step.clusters.reduce((sum, cluster) => sum + BigInt(cluster.win), 0n);
        await context.showWin(total);
        await context.pause(500);
        grid.querySelectorAll('.is-winning').forEach((element) => element.classList.add('is-bursting'));
        await context.pause(300);
      }
    },
  };
}
