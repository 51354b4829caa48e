"""Distractor apps: plausible AppFunctions from other domains, to grow the catalog.

``--distractors N`` installs N of these beside the suite's apps, to measure how
accuracy falls as an agent has more to choose from (seeds/000: a large action
space makes on-device models err). Each app is real: Python declarations with
Google-style docstrings, compiled to the function XML by the same compiler an
app developer runs (``droidsim appfunctions generate``), installed and
validated like any app, and its functions answer when called.

The domains are chosen to be near the sample apps' (a hotel's reservations
beside the restaurant bookings, a parcel service's shipments beside orders, a
calendar's events beside notes) but never able to do what a suite case asks:
none sends messages, plays music, sets alarms, orders food, books flights or
rides, or controls a thermostat, which the sample suite's irrelevance cases
ask for, so the right answer of every case is the same at any catalog size.
Past the list of domains, apps repeat under other brand names, as app stores do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BRANDS = ("", "Plus", "Go", "Pro", "Lite", "Hub", "Now", "Daily", "One", "Smart")


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # a Python annotation as written in the generated source
    doc: str


@dataclass(frozen=True)
class Function:
    name: str
    doc: str
    params: tuple[Param, ...]
    returns: str


@dataclass(frozen=True)
class Domain:
    key: str
    label: str
    description: str
    functions: tuple[Function, ...]


def _f(name: str, doc: str, returns: str, *params: tuple[str, str, str]) -> Function:
    return Function(name, doc, tuple(Param(*p) for p in params), returns)


DOMAINS = (
    Domain("calendar", "Calendar", "Your calendar: events with a title, a day and a time.", (
        _f("create_event", "Adds an event to the calendar.", "The new event's ID.",
           ("title", "str", "The event's title."), ("day", "date", "The day."),
           ("start_time", "time", "The start time.")),
        _f("list_events", "Lists the events of one day.", "The events' titles and times.",
           ("day", "date", "The day.")),
        _f("delete_event", "Deletes a calendar event. It cannot be restored.", "Whether it was deleted.",
           ("event_id", "str", "The ID of the event, for example EV-12.")),
    )),
    Domain("hotels", "Hotel Stays", "Search hotels and manage hotel reservations.", (
        _f("search_hotels", "Searches hotels with free rooms in a city.", "The hotels with a free room.",
           ("city", "str", "The city, for example Lisbon."), ("check_in", "date", "The arrival day."),
           ("nights", "Int32", "How many nights.")),
        _f("get_reservation", "Gets a hotel reservation by its confirmation code.", "The reservation.",
           ("confirmation_code", "str", "The code, for example HTL-4821.")),
        _f("cancel_reservation", "Cancels a hotel reservation.", "Whether it was cancelled.",
           ("confirmation_code", "str", "The code of the reservation to cancel.")),
    )),
    Domain("parcels", "Parcel Post", "Send parcels and follow parcels sent with the postal service.", (
        _f("track_parcel", "Tracks a parcel sent with the postal service by its tracking code.",
           "Where the parcel is.", ("tracking_code", "str", "The postal tracking code, for example PP123456789FR.")),
        _f("schedule_pickup", "Schedules a parcel pickup by a courier at an address.", "The pickup's ID.",
           ("address", "str", "Where to collect the parcel."), ("day", "date", "The day.")),
        _f("estimate_postage", "Estimates the postage for a parcel.", "The price in euros.",
           ("weight_kg", "float", "The parcel's weight in kilograms."),
           ("destination_country", "str", "The country it goes to.")),
    )),
    Domain("fitness", "Fitness Log", "Log workouts and see your activity.", (
        _f("log_workout", "Records a workout.", "The workout's ID.",
           ("activity", "str", "The activity, for example running."), ("minutes", "Int32", "How long it lasted.")),
        _f("get_step_count", "Gets the number of steps walked on a day.", "The step count.",
           ("day", "date", "The day.")),
        _f("set_daily_goal", "Sets the daily step goal.", "The new goal.",
           ("steps", "Int32", "The number of steps.")),
    )),
    Domain("banking", "Bank", "Your bank accounts: balances and transfers.", (
        _f("get_account_balance", "Gets the balance of a bank account.", "The balance.",
           ("account_id", "str", "The account, for example CHK-01.")),
        _f("list_transactions", "Lists recent transactions of an account.", "The transactions.",
           ("account_id", "str", "The account."), ("days", "Int32", "How many days back.")),
        _f("transfer_money", "Transfers money between your own accounts.", "The transfer's ID.",
           ("from_account", "str", "The account to take it from."), ("to_account", "str", "The account to put it in."),
           ("amount", "float", "The amount in the account's currency.")),
    )),
    Domain("recipes", "Recipes", "Find recipes and keep a shopping list for them.", (
        _f("search_recipes", "Searches recipes by ingredient.", "Matching recipes.",
           ("ingredient", "str", "An ingredient, for example chickpeas."),
           ("cuisine", "str | None", "Only this cuisine, for example Thai.")),
        _f("get_recipe", "Gets a recipe's ingredients and steps.", "The recipe.",
           ("recipe_id", "str", "The recipe's ID, for example RCP-77.")),
        _f("add_to_shopping_list", "Adds an item to the shopping list.", "The list's length.",
           ("item", "str", "What to buy.")),
    )),
    Domain("maps", "Maps", "Directions and places nearby.", (
        _f("get_directions", "Gets directions to a destination.", "The route.",
           ("destination", "str", "Where to go."), ("mode", "str", "driving, walking, cycling or transit.")),
        _f("find_nearby", "Finds places of a kind near you.", "The places.",
           ("place_type", "str", "For example pharmacy or petrol station.")),
        _f("save_place", "Saves a place to your favourites.", "Whether it was saved.",
           ("name", "str", "The place's name.")),
    )),
    Domain("news", "News", "Headlines and articles.", (
        _f("get_headlines", "Gets today's headlines on a topic.", "The headlines.",
           ("topic", "str", "For example sport or technology.")),
        _f("save_article", "Saves an article to read later.", "Whether it was saved.",
           ("article_id", "str", "The article's ID.")),
        _f("follow_topic", "Follows a topic.", "The followed topics.", ("topic", "str", "The topic.")),
    )),
    Domain("pharmacy", "Pharmacy", "Prescriptions and refills.", (
        _f("refill_prescription", "Asks the pharmacy to refill a prescription.", "The refill's status.",
           ("rx_number", "str", "The prescription number, for example RX-2231.")),
        _f("get_prescription_status", "Gets the status of a prescription refill.", "The status.",
           ("rx_number", "str", "The prescription number.")),
        _f("find_pharmacy", "Finds an open pharmacy near an address.", "The pharmacies.",
           ("address", "str", "The address.")),
    )),
    Domain("movies", "Cinema", "Showtimes and cinema tickets.", (
        _f("find_showtimes", "Finds showtimes of a film on a day.", "The showtimes.",
           ("movie", "str", "The film's title."), ("day", "date", "The day.")),
        _f("buy_tickets", "Buys cinema tickets for a showing.", "The tickets' code.",
           ("showing_id", "str", "The showing's ID."), ("seats", "Int32", "How many seats.")),
        _f("get_ticket", "Gets a ticket by its code.", "The ticket.", ("code", "str", "The ticket's code.")),
    )),
    Domain("parking", "Parking", "Pay for parking and find parking spaces.", (
        _f("start_parking", "Starts a parking session for a car in a zone.", "The session's ID.",
           ("zone", "str", "The parking zone number."), ("plate", "str", "The car's number plate.")),
        _f("stop_parking", "Stops a parking session.", "The price paid.", ("session_id", "str", "The session.")),
        _f("find_parking", "Finds free parking spaces near an address.", "The spaces.",
           ("address", "str", "The address.")),
    )),
    Domain("contacts", "Contacts", "Your address book.", (
        _f("find_contact", "Finds a contact by name.", "The matching contacts.", ("name", "str", "The name.")),
        _f("add_contact", "Adds a contact.", "The contact's ID.",
           ("name", "str", "The name."), ("phone", "str | None", "A phone number.")),
        _f("update_contact_email", "Changes a contact's email address.", "The contact.",
           ("contact_id", "str", "The contact's ID."), ("email", "str", "The new address.")),
    )),
    Domain("expenses", "Expenses", "Track spending by category.", (
        _f("add_expense", "Records an expense.", "The expense's ID.",
           ("amount", "float", "How much was spent."), ("category", "str", "For example groceries.")),
        _f("get_monthly_total", "Gets the total spent in a month.", "The total.",
           ("month", "Int32", "The month of this year, 1 to 12.")),
        _f("set_budget", "Sets a monthly budget for a category.", "The budget.",
           ("category", "str", "The category."), ("amount", "float", "The budget.")),
    )),
    Domain("plants", "Plant Care", "Watering reminders for your plants.", (
        _f("log_watering", "Records that a plant was watered.", "When it is due next.",
           ("plant_name", "str", "The plant, for example the fern.")),
        _f("list_plants_due", "Lists the plants that need water today.", "The plants.", ),
        _f("add_plant", "Adds a plant to look after.", "The plant's ID.",
           ("plant_name", "str", "The plant's name."), ("every_days", "Int32", "Water it every this many days.")),
    )),
)


def distractor_plan(count: int) -> list[tuple[Domain, str]]:
    """(domain, brand) for each of ``count`` apps; the same count always gives the same apps."""
    return [(DOMAINS[i % len(DOMAINS)], BRANDS[(i // len(DOMAINS)) % len(BRANDS)] + (
        str(i // (len(DOMAINS) * len(BRANDS))) if i >= len(DOMAINS) * len(BRANDS) else ""))
        for i in range(count)]


def write_distractor_apps(root: Path, count: int) -> list[Path]:
    """Write ``count`` distractor app folders under ``root`` (and compile their XML)."""
    from droid.appfunctions.compiler import generate

    folders = []
    for index, (domain, brand) in enumerate(distractor_plan(count)):
        folder = Path(root) / f"d{index:03d}_{domain.key}"
        _write_app(folder, domain, brand, index)
        generate(folder)
        folders.append(folder)
    return folders


def _write_app(folder: Path, domain: Domain, brand: str, index: int) -> None:
    package = f"com.distractor.{domain.key}{brand.lower()}"
    label = f"{domain.label} {brand}".strip()
    module = f"{domain.key}_functions"  # the loader finds the service's module by the last part of its name
    (folder / "res" / "xml").mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(f'"""{label}: a generated distractor app (sim.eval.distractors)."""\n')
    (folder / "AndroidManifest.xml").write_text(_MANIFEST.format(package=package, label=label, module=module))
    (folder / "res" / "xml" / "app_metadata.xml").write_text(
        _APP_METADATA.format(description=f"{label}: {domain.description} "
                             + " ".join(f.doc for f in domain.functions)))
    (folder / f"{module}.py").write_text(_service_source(domain, package, module, label))


def _service_source(domain: Domain, package: str, module: str, label: str) -> str:
    methods = []
    for function in domain.functions:
        signature = "".join(f", {p.name}: {p.type}" + (" = None" if "None" in p.type else "") for p in function.params)
        args = "".join(f"\n            {p.name}: {p.doc}" for p in function.params)
        doc = f"{function.doc}\n\n        Args:{args}\n\n        Returns:\n            {function.returns}\n        " \
            if function.params else f"{function.doc}\n\n        Returns:\n            {function.returns}\n        "
        used = ", ".join(f"{p.name}={{{p.name}!r}}" for p in function.params)
        destructive = ", destructive=True" if function.name.startswith(("delete", "cancel", "transfer", "buy")) else ""
        methods.append(f'''
    @app_function(described_by_docstring=True{destructive})
    async def {function.name}(self{signature}) -> str:
        """{doc}"""
        return f"{label}: {function.name} {used}"
''')
    return f'''"""{label}: generated by sim.eval.distractors; every function answers with a short text."""

from __future__ import annotations

from datetime import date, time

from droid.appfunctions import AppFunctionServiceEntryPoint, Int32, app_function


class DistractorFunctionService(AppFunctionServiceEntryPoint):
    service_name = "{package}.{module}.DistractorFunctionService"
    xml_file_name = "{module}"
{"".join(methods)}'''


_MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    package="{package}">
    <application android:label="{label}">
        <property android:name="android.app.appfunctions.app_metadata"
            android:resource="@xml/app_metadata" />
        <service android:name="{package}.{module}.DistractorFunctionService"
            android:permission="android.permission.BIND_APP_FUNCTION_SERVICE"
            android:exported="true">
            <intent-filter>
                <action android:name="android.app.appfunctions.AppFunctionService" />
            </intent-filter>
            <property android:name="android.app.appfunctions.v2" android:value="{module}.xml" />
        </service>
    </application>
</manifest>
"""

_APP_METADATA = """<?xml version="1.0" encoding="utf-8"?>
<AppFunctionAppMetadata xmlns:appfn="http://schemas.android.com/apk/res-auto"
    appfn:description="{description}"
    appfn:displayDescription="{description}" />
"""
