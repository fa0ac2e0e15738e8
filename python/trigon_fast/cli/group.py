"""The ``trigon`` command group: its subcommands live one area a module beside it, and the
errors a user can cause end as one line instead of a traceback."""

from __future__ import annotations

import sys
from typing import Any, Optional, Sequence

import click

from ..errors import TrigonError

_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2


class _TrigonGroup(click.Group):
    """Turns the errors a user can cause (bad files, bad moves, missing parts) into click's
    one-line ``Error: ...`` with exit status 1 instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise  # the reader went away (`trigon ... | head`): click ends quietly (status 1)
        except (TrigonError, ValueError, OSError, ImportError) as e:
            raise click.ClickException(one_line(e)) from None

    def main(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
             complete_var: Optional[str] = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            # (click hands back a raised click.exceptions.Exit's code: an interrupted command's 130)
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except _NO_ARGS_IS_HELP as e:
            click.echo(e.format_message())  # bare `trigon`: the help text, as click intends
            sys.exit(e.exit_code)
        except click.UsageError as e:
            # One line, with the pointer to help folded in (click's default prints three).
            where = e.ctx.command_path if e.ctx is not None else "trigon"
            click.echo(f"Error: {e.format_message()} (see '{where} --help')", err=True)
            sys.exit(e.exit_code)
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


@click.group(cls=_TrigonGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trigon_fast", prog_name="trigon")
def main() -> None:
    """Blokus Trigon from the terminal: play the engine, solve the solo puzzle, analyse and
    draw games, run engine matches and benchmarks. (`python -m trigon_fast` with no arguments
    solves the solo puzzle and prints it.)

    \b
    Examples:
      trigon play --variant two
      trigon solve --time-limit 10 --svg solved.svg
      trigon render game.blksgf --svg board.svg --move 20
      trigon analyse game.blksgf --json
      trigon match --engine greedy --engine random --games 20
      trigon bench
    """
