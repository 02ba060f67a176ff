"""Running a job's tasks for a command: on every local core or on Ray, with a progress bar.

The arena and the deck lab's played openings run the same way (`analysis.arena.run` /
`run_on_ray`); this is the one place that says where they run and maps a cluster that cannot be
reached to a usage error (exit 2)."""

from __future__ import annotations

import argparse
from typing import Any, Callable, Sequence, TypeVar

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..analysis.arena import ClusterError, Job, default_workers, run, run_on_ray
from .common import UsageError, err

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")


def run_with_progress(job: Job[Any, TaskT, ResultT], tasks: Sequence[TaskT], noun: str,
                      args: argparse.Namespace,
                      on_result: Callable[[ResultT], None] = lambda _: None) -> tuple[list[ResultT], str, int]:
    """The results of `tasks` in order, where they ran ("2 workers", "Ray (local)") and the
    worker count; `noun` names the tasks on the progress bar ("duels", "openings"); `on_result`
    gets each result as it comes (the arena writes its file as it goes)."""
    workers = args.workers or default_workers()
    where = f"Ray ({args.ray})" if args.ray else f"{workers} worker{'s' if workers > 1 else ''}"
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as bar:
        task_bar = bar.add_task(f"{len(tasks)} {noun} on {where}", total=len(tasks))

        def step(result: ResultT) -> None:
            bar.advance(task_bar)
            on_result(result)

        try:
            results = run_on_ray(job, tasks, args.ray, workers, step) if args.ray else run(job, tasks, workers, step)
        except ClusterError as e:
            raise UsageError(str(e.args[0]), e.args[1] if len(e.args) > 1 else "") from None
    return results, where, workers
