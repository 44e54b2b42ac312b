"""webhooks.verify and sign without a service, and against the Standard Webhooks reference library both ways.

The reference library is the npm package `standardwebhooks` in the repository's node_modules (npm ci).
"""

from __future__ import annotations

import base64
import json
import secrets
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from petstore import API_VERSION, Event, PetCreatedEvent, WebhookVerificationError, webhooks
from support import resources as expected
from support.service import REPOSITORY, node

SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
EVENT = {
    "id": "evt_python_1",
    "type": "pet.created",
    "createdAt": "2026-11-25T10:15:02.418Z",
    "apiVersion": API_VERSION,
    "data": {"object": expected.pet(id=7, name="Rex ü", categoryId=3)},
}
PAYLOAD = json.dumps(EVENT, ensure_ascii=False)


def reference(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Runs `script` (an ES module importing `standardwebhooks`) with node; its arguments are process.argv.slice(1)."""
    return subprocess.run(
        [node(), "--input-type=module", "-e", script, *arguments], cwd=REPOSITORY, capture_output=True, text=True, timeout=30
    )


def test_what_sign_signs_verify_answers_as_the_typed_event() -> None:
    event = webhooks.verify(PAYLOAD.encode(), webhooks.sign(PAYLOAD, SECRET), SECRET)
    assert isinstance(event, PetCreatedEvent)
    assert event.data.object == expected.pet_model(id=7, name="Rex ü", category_id=3)
    assert event.created_at == datetime(2026, 11, 25, 10, 15, 2, 418_000, tzinfo=timezone.utc)
    assert webhooks.verify(PAYLOAD, webhooks.sign(PAYLOAD, SECRET), SECRET) == event, "a str body as well as bytes"


def test_reads_the_headers_in_any_case_and_tries_each_signature_and_each_secret() -> None:
    headers = webhooks.sign(PAYLOAD, SECRET)
    shouted = {name.upper(): value for name, value in headers.items()}
    other = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    shouted["WEBHOOK-SIGNATURE"] = f"v1,bm90IGl0 v2,ignored {headers['webhook-signature']}"
    assert webhooks.verify(PAYLOAD, shouted, [other, SECRET]).id == "evt_python_1"


def test_refuses_a_forgery_a_stale_or_future_timestamp_and_missing_headers() -> None:
    signed_at = datetime(2026, 11, 25, 10, 0, tzinfo=timezone.utc)
    headers = webhooks.sign(PAYLOAD, SECRET, timestamp=signed_at)
    assert webhooks.verify(PAYLOAD, headers, SECRET, now=signed_at + timedelta(minutes=4)).id == "evt_python_1"
    for now in (signed_at + timedelta(minutes=6), signed_at - timedelta(minutes=6)):
        with pytest.raises(WebhookVerificationError, match="from now"):
            webhooks.verify(PAYLOAD, headers, SECRET, now=now)
    assert webhooks.verify(PAYLOAD, headers, SECRET, now=signed_at + timedelta(minutes=9), tolerance=600).id
    with pytest.raises(WebhookVerificationError, match="No webhook-signature matches"):
        webhooks.verify(PAYLOAD.replace("Rex", "Max"), headers, SECRET, now=signed_at)
    with pytest.raises(WebhookVerificationError, match="No webhook-signature matches"):
        webhooks.verify(PAYLOAD, {**headers, "webhook-id": "evt_other"}, SECRET, now=signed_at)
    with pytest.raises(WebhookVerificationError, match="Missing"):
        webhooks.verify(PAYLOAD, {k: v for k, v in headers.items() if k != "webhook-signature"}, SECRET)
    with pytest.raises(WebhookVerificationError, match="Unix seconds"):
        webhooks.verify(PAYLOAD, {**headers, "webhook-timestamp": "soon"}, SECRET)
    with pytest.raises(WebhookVerificationError, match="whsec_"):
        webhooks.verify(PAYLOAD, headers, "whsec_", now=signed_at)


def test_answers_an_event_of_a_type_newer_than_the_client_as_a_plain_event() -> None:
    newer = json.dumps({**EVENT, "type": "pet.adopted"})
    event = webhooks.verify(newer, webhooks.sign(newer, SECRET), SECRET)
    assert type(event) is Event and event.type == "pet.adopted" and event.data.object["name"] == "Rex ü"


def test_refuses_a_signed_body_that_is_no_event() -> None:
    with pytest.raises(WebhookVerificationError, match="not an event"):
        webhooks.verify('{"id": "evt_1"}', webhooks.sign('{"id": "evt_1"}', SECRET), SECRET)


def test_what_it_signs_the_reference_library_verifies_and_a_forgery_it_refuses() -> None:
    script = """
        import { Webhook } from 'standardwebhooks';
        const [secret, payload, headers] = process.argv.slice(1);
        try { console.log(JSON.stringify(new Webhook(secret).verify(payload, JSON.parse(headers)))); }
        catch (error) { console.log(`refused: ${error.message}`); }
    """
    headers = json.dumps(webhooks.sign(PAYLOAD, SECRET))
    verified = reference(script, SECRET, PAYLOAD, headers)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout) == EVENT
    forged = reference(script, SECRET, PAYLOAD.replace("Rex", "Max"), headers)
    assert forged.stdout.startswith("refused:"), forged.stdout + forged.stderr


def test_verifies_what_the_reference_library_signs() -> None:
    script = """
        import { Webhook } from 'standardwebhooks';
        const [secret, id, seconds, payload] = process.argv.slice(1);
        console.log(new Webhook(secret).sign(id, new Date(Number(seconds) * 1000), payload));
    """
    seconds = str(int(datetime.now(timezone.utc).timestamp()))
    signed = reference(script, SECRET, "evt_python_1", seconds, PAYLOAD)
    assert signed.returncode == 0, signed.stderr
    headers = {"webhook-id": "evt_python_1", "webhook-timestamp": seconds, "webhook-signature": signed.stdout.strip()}
    assert webhooks.verify(PAYLOAD, headers, SECRET) == webhooks.verify(PAYLOAD, webhooks.sign(PAYLOAD, SECRET), SECRET)
    assert headers["webhook-signature"] == webhooks.sign(PAYLOAD, SECRET, timestamp=datetime.fromtimestamp(int(seconds), timezone.utc))["webhook-signature"]
