"""A Label Studio project three people annotate, exported by the server itself.

Run against a local Label Studio (pip install label-studio; 1.23.2 here):

    label-studio start --no-browser --data-dir ./data --internal-host 127.0.0.1 -p 8089 \
        --username admin@newsroom.test --password desk-panel-47 \
        --user-token 0123456789abcdef0123456789abcdef01234567 --enable-legacy-api-token
    python label_studio_panel.py OUT_DIR

The admin makes the project and imports eight headlines; ana, ben and cleo sign up on the
server's own sign-up page, log in, read their API token from /api/current-user/token and
each annotate every task through the API the labelling page uses (POST
/api/tasks/<id>/annotations/); cleo skips task 5 (Skip posts was_cancelled: true with an
empty result). Then the server's export API writes JSON, JSON_MIN and CSV.
"""

import re
import sys
from pathlib import Path

import requests

SERVER = "http://127.0.0.1:8089"
ADMIN = {"Authorization": "Token 0123456789abcdef0123456789abcdef01234567"}
CONFIG = """<View>
  <Text name="text" value="$text"/>
  <Choices name="verdict" toName="text">
    <Choice value="PASS"/>
    <Choice value="FAIL"/>
  </Choices>
</View>"""
HEADLINES = [
    "Council approves protected bike lanes on Main Street",
    "Local bakery takes top sourdough prize at state fair",
    "Coffee cures high blood pressure, scientists say",
    "Storm forecast closes county schools on Monday",
    "Library to open on Sundays starting in June",
    "Unemployment plunges across the region",
    "Mayor will not seek third term",
    "Zoo welcomes red panda cub",
]
# Each annotator's verdict, headline by headline; None: the annotator pressed Skip.
VERDICTS = {
    "ana": ["PASS", "PASS", "FAIL", "PASS", "PASS", "FAIL", "PASS", "FAIL"],
    "ben": ["PASS", "PASS", "FAIL", "PASS", "PASS", "FAIL", "PASS", "PASS"],
    "cleo": ["PASS", "FAIL", "FAIL", "PASS", None, "FAIL", "PASS", "PASS"],
}
PASSWORD = "desk-panel-47"


def checked(response: requests.Response) -> requests.Response:
    if response.status_code >= 400:
        raise SystemExit(
            f"{response.request.method} {response.url}: {response.status_code} {response.text[:400]}"
        )
    return response


def sign_up(name: str) -> str:
    """Signs ``name`` up on the server's sign-up page; the user's API token."""
    session = requests.Session()
    page = checked(session.get(f"{SERVER}/user/signup/")).text
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    token = csrf.group(1) if csrf else session.cookies["csrftoken"]
    checked(
        session.post(
            f"{SERVER}/user/signup/",
            data={
                "csrfmiddlewaretoken": token,
                "email": f"{name}@newsroom.test",
                "password": PASSWORD,
            },
            headers={"Referer": f"{SERVER}/user/signup/"},
        )
    )
    return checked(session.get(f"{SERVER}/api/current-user/token")).json()["token"]


def main(out: Path) -> None:
    project = checked(
        requests.post(
            f"{SERVER}/api/projects/",
            headers=ADMIN,
            json={"title": "Headline check", "label_config": CONFIG, "maximum_annotations": 3},
        )
    ).json()
    checked(
        requests.post(
            f"{SERVER}/api/projects/{project['id']}/import",
            headers=ADMIN,
            json=[{"text": text} for text in HEADLINES],
        )
    )
    tasks = checked(
        requests.get(
            f"{SERVER}/api/tasks/",
            headers=ADMIN,
            params={"project": project["id"], "page_size": 100},
        )
    ).json()["tasks"]
    task_ids = sorted(task["id"] for task in tasks)
    for name, verdicts in VERDICTS.items():
        auth = {"Authorization": f"Token {sign_up(name)}"}
        for n, (task_id, verdict) in enumerate(zip(task_ids, verdicts, strict=True)):
            if verdict is None:
                body = {"result": [], "was_cancelled": True, "lead_time": 2.5 + n}
            else:
                choice = {"choices": [verdict]}
                body = {
                    "result": [
                        {
                            "from_name": "verdict",
                            "to_name": "text",
                            "type": "choices",
                            "value": choice,
                            "origin": "manual",
                        }
                    ],
                    "lead_time": 4.0 + n + len(name) / 10,
                }
            checked(
                requests.post(f"{SERVER}/api/tasks/{task_id}/annotations/", headers=auth, json=body)
            )
    out.mkdir(parents=True, exist_ok=True)
    for kind, name in (
        ("JSON", "label-studio-panel.json"),
        ("JSON_MIN", "label-studio-panel-min.json"),
        ("CSV", "label-studio-panel.csv"),
    ):
        export = checked(
            requests.get(
                f"{SERVER}/api/projects/{project['id']}/export",
                headers=ADMIN,
                params={"exportType": kind, "download_all_tasks": "true"},
            )
        )
        (out / name).write_bytes(export.content)
        print(kind, len(export.content), "bytes ->", out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
