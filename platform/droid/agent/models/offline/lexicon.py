"""The offline model's word lists: what lets a keyword heuristic read French, Thai and Chinese.

``to_english(text)`` rewrites known words and phrases into the English words that
tool names and descriptions use ("ยกเลิก" -> "cancel", "笔记" -> "note", "éteins" ->
"turn off"), so that one matcher serves every language. Thai and Chinese are
matched as substrings (they are written without spaces), the longest phrase
first; French and English synonyms as whole words. A word that is not here is
not understood: this list is the heuristic's vocabulary, and its limit.
"""

from __future__ import annotations

import functools
import re

# English synonyms first, then French, Thai, Chinese. "phrase = english words".
_GLOSSARY = """
package = order
parcel = order
purchase = order
buy = order
bought = order
shipped = status delivery
delivered = status delivery
arrived = status delivery
arrive = status delivery
lamp = light
lamps = lights
pendant = light
bedside = bedroom bedside
jot = write
rename = change title
text = content
body = content
brightness = brightness dim
percent = percent brightness
half = 50 percent
restaurant = table
restaurants = table
place = table
umbrella = weather rain
jacket = weather temperature
hot = weather temperature
cold = weather temperature
foggy = weather conditions
fog = weather conditions
raining = weather rain
fahrenheit = imperial
celsius = metric
outside = outside porch
read = get show
open = show get
happening = status
shipped = status
free = search
commande = order
commandes = order
annule = cancel
annuler = cancel
annulez = cancel
météo = weather
temps = weather
fait-il = weather
lumière = light
lumières = lights
lampe = light
plafond = ceiling
chevet = bedside
mets = set
mettre = set
salon = living room
cuisine = kitchen
chambre = bedroom
allume = turn on
allumer = turn on
éteins = turn off
éteindre = turn off
éteignez = turn off
baisse = dim
tamise = dim
réserve = book table
réserver = book table
réservation = booking
crée = create
cherche = search find
chercher = search find
trouve = find search
créer = create
note = note
titre = title
texte = content
contenu = content
où = where
quel = what
ออเดอร์ = order
คำสั่งซื้อ = order
พัสดุ = order
ยกเลิก = cancel
อยู่ที่ไหน = where status
ที่ไหน = where
สถานะ = status
อากาศ = weather
ไฟ = light
โคมไฟ = light
ระเบียง = porch
หน้าบ้าน = outside
ห้องนอน = bedroom
ห้องนั่งเล่น = living room
ห้องครัว = kitchen
ครัว = kitchen
เปิด = turn on
ปิด = turn off
หรี่ = dim
ความสว่าง = brightness
จอง = book table
ค้นหา = search find
โต๊ะ = table
ร้านอาหาร = table
โน้ต = note
บันทึก = note
สร้าง = create
หัวข้อ = title
ชื่อเรื่อง = title
เนื้อหา = content
订单 = order
包裹 = order
取消 = cancel
状态 = status
在哪 = where
查 = check
天气 = weather
温度 = weather temperature
灯 = light
台灯 = bedside light
吊灯 = pendant light
卧室 = bedroom
客厅 = living room
厨房 = kitchen
门廊 = porch
打开 = turn on
开灯 = turn on light
关掉 = turn off
关闭 = turn off
关灯 = turn off light
调到 = dim to
调暗 = dim
亮度 = brightness
预订 = book table
搜索 = search find
找 = find
订 = book table
桌 = table
餐厅 = table
笔记 = note
新建 = create
创建 = create
标题 = title
内容 = content
"""

# Native names of cities the sample weather app knows, to the names it expects.
PLACES = {
    "กรุงเทพ": "Bangkok", "กรุงเทพฯ": "Bangkok", "โตเกียว": "Tokyo", "ปารีส": "Paris", "ลอนดอน": "London",
    "ปักกิ่ง": "Beijing", "นิวยอร์ก": "New York", "北京": "Beijing", "东京": "Tokyo", "巴黎": "Paris", "伦敦": "London",
    "纽约": "New York", "曼谷": "Bangkok", "旧金山": "San Francisco", "Londres": "London", "Pékin": "Beijing",
}

# Words that are never places, even capitalised after "in" ("in Fahrenheit", "in March").
NOT_PLACES = frozenset(
    "fahrenheit celsius metric imperial january february march april may june july august september october "
    "november december monday tuesday wednesday thursday friday saturday sunday english french thai chinese "
    "japanese italian today tomorrow tonight".split()
)

# Words that start sentences: a capital on them does not make a name.
COMMON = frozenset(
    "what what's whats where where's how how's when which who is are can could please show tell give find "
    "search look check get set turn switch make create book cancel weather and also then ok okay great".split()
)

# Values that some parameters take from a closed set (a parameter named after the kind).
KINDS = {
    "cuisine": {"italian": "Italian", "japanese": "Japanese", "french": "French", "thai": "Thai",
                "chinese": "Chinese", "indian": "Indian", "mexican": "Mexican", "sushi": "Japanese",
                "italien": "Italian", "japonais": "Japanese", "français": "French", "ญี่ปุ่น": "Japanese",
                "อิตาเลียน": "Italian", "日本": "Japanese", "意大利": "Italian", "法国": "French"},
    "room": {"living room": "Living room", "kitchen": "Kitchen", "bedroom": "Bedroom", "outside": "Outside",
             "bathroom": "Bathroom", "office": "Office"},
}

NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5,
    "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "douze": 12,
}
THAI_NUMBERS = {"หนึ่ง": 1, "สอง": 2, "สาม": 3, "สี่": 4, "ห้า": 5, "หก": 6, "เจ็ด": 7, "แปด": 8, "เก้า": 9, "สิบ": 10}
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_PERCENT = re.compile(r"百分之\s*(\d+|[一二两三四五六七八九十]+)")


@functools.lru_cache(maxsize=None)
def _entries() -> tuple[list[tuple[str, str]], list[tuple[re.Pattern[str], str]]]:
    substrings, words = [], []
    for line in _GLOSSARY.strip().splitlines():
        phrase, _, english = (part.strip() for part in line.partition("="))
        if re.search(r"[\u0E00-\u0E7F\u4E00-\u9FFF]", phrase):
            substrings.append((phrase, english))
        else:
            words.append((re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", re.I), english))
    substrings.sort(key=lambda e: -len(e[0]))
    return substrings, words


def zh_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + _ZH_DIGITS.get(ones, 0)
    return _ZH_DIGITS.get(text, 0)


def numbers_in_words(text: str) -> str:
    """Spelled numbers as digits ("three of us" -> "3 of us", "百分之四十" -> "40%")."""
    text = _ZH_PERCENT.sub(lambda m: f" {zh_number(m.group(1))}% ", text)
    for word, value in THAI_NUMBERS.items():
        text = re.sub(rf"{word}(?=\s*(?:คน|ท่าน|ที่))", f" {value} ", text)
    text = re.sub(r"([一二两三四五六七八九十]+)\s*(?=个人|位|人|个)", lambda m: f" {zh_number(m.group(1))} ", text)
    return re.sub(r"\b(" + "|".join(NUMBER_WORDS) + r")\b",
                  lambda m: str(NUMBER_WORDS[m.group(1).lower()]), text, flags=re.I)


_QUOTES = re.compile(r'"[^"]+"|\u201c[^\u201d]+\u201d|«[^»]+»|「[^」]+」')


def to_english(text: str) -> str:
    """The prompt in the words tools use (see the module docstring); quoted text is left as it is."""
    quotes: list[str] = []

    def hide(match: re.Match[str]) -> str:
        quotes.append(match.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    text = _rewrite(_QUOTES.sub(hide, text))
    return re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], text)


def _rewrite(text: str) -> str:
    substrings, words = _entries()
    for phrase, english in substrings:
        text = text.replace(phrase, f" {english} ")
    for pattern, english in words:
        text = pattern.sub(f" {english} ", text)
    for native, english in PLACES.items():
        text = text.replace(native, f" {english} ")
    return text
