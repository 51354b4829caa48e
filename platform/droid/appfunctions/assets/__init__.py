"""The assets the AppFunctions library puts into every app, as androidx.appfunctions's AAR does.

``app_functions_schema.xsd`` is the app schema: the AppSearch document types (in AppSearch's own
XSD dialect, not W3C XSD) that the function XML droid's compiler writes is made of. An app names
it in its manifest (``<property android:name="android.app.appfunctions.schema"
android:value="app_functions_schema.xsd" />``), and ``droidsim appfunctions generate`` copies it
into the app's ``assets/`` beside the function XML. Without it Android 16 indexes none of a v2
file's functions and Android 17 only their ids (docs/declaring-functions.md).
"""

from pathlib import Path

APP_FUNCTIONS_SCHEMA = Path(__file__).with_name("app_functions_schema.xsd")
