"""The smart-home app's AppFunctions: list lights, switch them on or off, dim them."""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Literal

from droid.appfunctions import (
    AppFunctionElementNotFoundException,
    AppFunctionInvalidArgumentException,
    AppFunctionServiceEntryPoint,
    Int32,
    app_function,
    app_function_serializable,
)


@app_function_serializable(described_by_docstring=True)
@dataclass(frozen=True)
class Light:
    """A light in the home.

    Attributes:
        light_id: The light's ID, for example kitchen-pendant.
        name: The light's display name.
        room: The room the light is in.
        is_on: Whether the light is switched on.
        brightness: The brightness in percent, from 1 to 100, used while the light is on.
    """

    light_id: str
    name: str
    room: str
    is_on: bool
    brightness: Int32


def _seed() -> dict[str, Light]:
    lights = [
        Light("living-room-ceiling", "Ceiling light", "Living room", True, 80),
        Light("living-room-floor-lamp", "Floor lamp", "Living room", False, 60),
        Light("kitchen-pendant", "Pendant", "Kitchen", False, 100),
        Light("bedroom-lamp", "Bedside lamp", "Bedroom", True, 30),
        Light("porch", "Porch light", "Outside", False, 100),
    ]
    return {light.light_id: light for light in lights}


class LightFunctionService(AppFunctionServiceEntryPoint):
    service_name = "com.example.smarthome.LightFunctionService"
    xml_file_name = "light_functions"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lights = _seed()

    def _update(self, light_id: str, **changes: object) -> Light:
        with self._lock:
            light = self._lights.get(light_id)
            if light is None:
                known = ", ".join(self._lights)
                raise AppFunctionElementNotFoundException(
                    f"No light with ID {light_id}; the lights are: {known}"
                )
            light = replace(light, **changes)
            self._lights[light_id] = light
            return light

    @app_function(described_by_docstring=True)
    async def list_lights(self, room: str | None = None) -> list[Light]:
        """Lists the lights in the home with their on/off state and brightness.

        Args:
            room: Only list the lights in this room, for example Kitchen; all rooms when omitted.

        Returns:
            The lights, ordered by room.
        """
        with self._lock:
            lights = list(self._lights.values())
        if room is not None:
            lights = [light for light in lights if light.room.casefold() == room.strip().casefold()]
        return sorted(lights, key=lambda light: (light.room, light.name))

    @app_function(described_by_docstring=True)
    async def set_light_power(self, light_id: str, power: Literal["ON", "OFF"]) -> Light:
        """Switches a light on or off.

        Args:
            light_id: The ID of the light, for example kitchen-pendant.
            power: ON to switch the light on, OFF to switch it off.

        Returns:
            The light's new state.
        """
        return self._update(light_id, is_on=power == "ON")

    @app_function(described_by_docstring=True)
    async def dim_light(self, light_id: str, brightness: Int32) -> Light:
        """Sets a light's brightness and switches it on.

        Args:
            light_id: The ID of the light, for example bedroom-lamp.
            brightness: The brightness in percent, from 1 to 100.

        Returns:
            The light's new state.
        """
        if not 1 <= brightness <= 100:
            raise AppFunctionInvalidArgumentException(
                f"brightness must be from 1 to 100 percent, not {brightness}"
            )
        return self._update(light_id, is_on=True, brightness=brightness)
