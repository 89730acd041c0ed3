import os
import subprocess
from pathlib import Path
from typing import Iterator

import cdktf
import pytest

from cdktf_server_hosting import testing
from web_stack import WebStack


@pytest.fixture
def account() -> Iterator[testing.SimulatedAccount]:
    # Beside this file, wherever pytest runs from.
    account = testing.SimulatedAccount.start(account_file=str(Path(__file__).with_name("account.json")))
    yield account
    account.stop()


def test_the_change_stops_exactly_web_1_and_writes_nothing_else(account: testing.SimulatedAccount, tmp_path: Path) -> None:
    # The stack's state is kept in tmp_path too, never in the folder pytest runs from.
    app = testing.IsolatedApp(outdir=str(tmp_path))
    WebStack(app, "web", base_url=account.base_url)
    app.synth()

    def terraform(*args: str) -> None:
        env = {**os.environ, "HOSTING_API_TOKEN": account.token}
        subprocess.run(["terraform", *args, "-input=false", "-no-color"], cwd=app.stack_dir("web"), env=env, check=True)

    terraform("init")
    terraform("apply", "-auto-approve")

    assert [(a.server_id, a.action) for a in account.executed_actions()] == [("vps_web_1", "shutdown")]
    assert len(account.executed_writes()) == 1
    assert next(s for s in account.state() if s.id == "vps_web_2").power == "running"


def test_the_stack_synthesizes_a_firewall_per_server(tmp_path: Path) -> None:
    # cdktf.Testing through its module: a name starting with "Test" imported into a test file is
    # a class pytest tries to collect, and warns it cannot (PytestCollectionWarning).
    synthesized = cdktf.Testing.synth(WebStack(testing.IsolatedApp(outdir=str(tmp_path)), "web"))
    assert cdktf.Testing.to_have_resource(synthesized, "hosting_server_firewall")
