//! A company's privacy notice and its customers' authorizations (Ley 1581 de 2012, art. 9;
//! Decreto 1377 de 2013, arts. 5, 7 and 13-16) as the API answers and takes them.

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use tokio_postgres::Row;

use crate::error::{AppError, AppResult, Msg};

/// The purpose every notice has and every enrolment needs: running the loyalty program.
pub const REQUIRED_PURPOSE: &str = "loyalty";
/// The longest notice text.
pub const MAX_BODY: usize = 20_000;
/// The longest description of a purpose.
pub const MAX_PURPOSE_DESCRIPTION: usize = 500;
/// The most purposes a notice can ask for.
pub const MAX_PURPOSES: usize = 20;
/// The ways an authorization reaches the company.
pub const CHANNELS: [&str; 3] = ["store", "web", "import"];

/// Version 1 of every company's notice, in Spanish, with `{empresa}` for the company's name. The
/// admin adapts it (the contact channels above all) by publishing version 2 (docs/privacy.md).
pub const TEMPLATE: &str = "\
AVISO DE PRIVACIDAD

{empresa}, responsable del tratamiento de sus datos personales, recoge su nombre, documento de \
identidad, correo electrónico, teléfono, dirección y fecha de nacimiento, y las compras y \
redenciones de puntos que usted haga, para las finalidades que usted autorice en este aviso.

Finalidades:
- Programa de fidelización (obligatoria para inscribirse): identificarle, acumular y redimir sus \
puntos, mostrarle su saldo y atender sus solicitudes.
- Mercadeo (opcional): enviarle ofertas, novedades y promociones.

Sus derechos (Ley 1581 de 2012, artículo 8): conocer, actualizar y rectificar sus datos; pedir \
prueba de esta autorización; ser informado del uso que se les da; presentar quejas ante la \
Superintendencia de Industria y Comercio; revocar la autorización o pedir la supresión de sus \
datos cuando no exista un deber legal o contractual de conservarlos; y acceder gratuitamente a \
ellos. Responder preguntas sobre datos sensibles o de niñas, niños y adolescentes es facultativo.

Puede ejercer estos derechos en cualquiera de nuestros puntos de venta o por los canales de \
atención de {empresa}. Las consultas se responden en un máximo de 10 días hábiles y los reclamos \
en un máximo de 15.

La política de tratamiento de la información de {empresa} y este aviso se publican en esta \
página; todo cambio sustancial se publica aquí como una nueva versión antes de aplicarse.";

/// The purposes of version 1: `(key, description)`.
pub const TEMPLATE_PURPOSES: [(&str, &str); 2] = [
    (
        REQUIRED_PURPOSE,
        "Programa de fidelización: identificarle, acumular y redimir sus puntos, y atender sus solicitudes.",
    ),
    ("marketing", "Mercadeo: enviarle ofertas, novedades y promociones."),
];

/// One purpose a notice asks authorization for.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Purpose {
    /// `loyalty` (always there, required), `marketing`, or one the company added: 2 to 30 lower-case
    /// letters, digits or `_`, starting with a letter.
    pub key: String,
    /// What the data are used for under this purpose, in the company's words.
    pub description: String,
    /// Whether a customer must grant it to enrol: only `loyalty`.
    #[serde(default)]
    pub required: bool,
}

/// One version of the company's privacy notice. Versions are never edited nor deleted.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyNotice {
    /// 1 for the template every company starts with; the highest is the one in force.
    pub version: i32,
    /// The notice's text, as the company wrote it.
    pub body: String,
    pub purposes: Vec<Purpose>,
    pub published_at: DateTime<Utc>,
    /// The user who published it; `system` for version 1.
    pub published_by: String,
    /// The super admin acting as the company's admin, when one published it.
    pub impersonated_by: Option<String>,
}

/// Columns of `PrivacyNotice`.
pub const NOTICE_COLUMNS: &str = "version, body, purposes, published_at, published_by, impersonated_by";

impl PrivacyNotice {
    pub fn from_row(row: &Row) -> Self {
        let purposes: serde_json::Value = row.get("purposes");
        PrivacyNotice {
            version: row.get("version"),
            body: row.get("body"),
            purposes: serde_json::from_value(purposes).unwrap_or_default(),
            published_at: row.get("published_at"),
            published_by: row.get("published_by"),
            impersonated_by: row.get("impersonated_by"),
        }
    }

    pub fn purpose(&self, key: &str) -> Option<&Purpose> {
        self.purposes.iter().find(|p| p.key == key)
    }
}

/// The notice in force, as anyone may read it without logging in.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicNotice {
    /// The company's name: the data controller.
    pub company: String,
    pub version: i32,
    pub body: String,
    pub purposes: Vec<Purpose>,
    pub published_at: DateTime<Utc>,
}

/// A purpose of a new version.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PurposeInput {
    key: Option<String>,
    description: Option<String>,
}

/// A new version of the notice: its whole text and its purposes (`loyalty` among them).
#[derive(Deserialize, utoipa::ToSchema)]
pub struct NoticeInput {
    /// The notice's text, 1 to 20,000 characters.
    #[schema(value_type = String, required = true)]
    body: Option<String>,
    /// `loyalty` must be one; at most 20, keys not repeated.
    #[schema(value_type = Vec<PurposeInput>, required = true)]
    purposes: Option<Vec<PurposeInput>>,
}

/// A version to publish, validated.
pub struct ValidNotice {
    pub body: String,
    pub purposes: Vec<Purpose>,
}

fn purpose_key_valid(key: &str) -> bool {
    let mut chars = key.chars();
    (2..=30).contains(&key.len())
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

impl NoticeInput {
    pub fn validate(&self) -> AppResult<ValidNotice> {
        let body = self.body.as_deref().map(str::trim).unwrap_or_default();
        if body.is_empty() || body.chars().count() > MAX_BODY || body.contains('\0') {
            return Err(AppError::bad_request(Msg::PrivacyTextRequired));
        }
        let mut purposes = Vec::new();
        let mut seen = HashSet::new();
        for p in self.purposes.iter().flatten() {
            let key = p.key.as_deref().map(str::trim).unwrap_or_default();
            if !purpose_key_valid(key) || !seen.insert(key.to_string()) {
                return Err(AppError::bad_request(Msg::PrivacyPurposeKeyInvalid.with("purpose", key)));
            }
            let description = p.description.as_deref().map(str::trim).unwrap_or_default();
            if description.is_empty()
                || description.chars().count() > MAX_PURPOSE_DESCRIPTION
                || description.contains('\0')
            {
                return Err(AppError::bad_request(Msg::PrivacyPurposeDescriptionRequired.with("purpose", key)));
            }
            purposes.push(Purpose {
                key: key.to_string(),
                description: description.to_string(),
                required: key == REQUIRED_PURPOSE,
            });
        }
        if purposes.len() > MAX_PURPOSES {
            return Err(AppError::bad_request(Msg::PrivacyTooManyPurposes.with("max", MAX_PURPOSES)));
        }
        if !seen.contains(REQUIRED_PURPOSE) {
            return Err(AppError::bad_request(Msg::PrivacyLoyaltyPurposeMissing));
        }
        Ok(ValidNotice { body: body.to_string(), purposes })
    }
}

/// A customer's authorization as recorded at enrolment: the notice version shown, the purposes
/// granted, and how it was given.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentInput {
    /// The version of the notice the customer was shown: it must be the one in force.
    #[schema(value_type = i32, required = true)]
    notice_version: Option<i32>,
    /// The purposes granted (keys of the notice); `loyalty` is required. Those left out are
    /// recorded as refused.
    #[schema(value_type = Vec<String>, required = true)]
    purposes: Option<Vec<String>>,
    /// `store` (at a point of sale or by staff), `web` (by the customer online) or `import`.
    #[schema(value_type = String, required = true)]
    channel: Option<String>,
}

/// The channel of an authorization.
fn channel(value: Option<&str>) -> AppResult<String> {
    match value.map(str::trim) {
        Some(c) if CHANNELS.contains(&c) => Ok(c.to_string()),
        _ => Err(AppError::bad_request(Msg::PrivacyChannelInvalid)),
    }
}

/// An authorization to record: every purpose of its notice version, granted or not.
pub struct ValidConsent {
    pub notice_version: i32,
    pub answers: Vec<(String, bool)>,
    pub channel: String,
}

impl ConsentInput {
    /// The authorization, checked against the notice in force.
    pub fn validate(input: Option<&ConsentInput>, current: &PrivacyNotice) -> AppResult<ValidConsent> {
        let Some(input) = input else {
            return Err(AppError::bad_request(Msg::PrivacyConsentRequired));
        };
        let Some(version) = input.notice_version else {
            return Err(AppError::bad_request(Msg::PrivacyConsentRequired));
        };
        if version != current.version {
            return Err(AppError::bad_request(
                Msg::PrivacyNoticeOutdated.with("given", version).with("current", current.version),
            ));
        }
        let granted: Vec<&str> = input.purposes.iter().flatten().map(|p| p.trim()).collect();
        if let Some(unknown) = granted.iter().find(|p| current.purpose(p).is_none()) {
            return Err(AppError::bad_request(Msg::PrivacyPurposeUnknown.with("purpose", *unknown)));
        }
        if let Some(missing) = current.purposes.iter().find(|p| p.required && !granted.contains(&p.key.as_str())) {
            return Err(AppError::bad_request(Msg::PrivacyPurposeRequired.with("purpose", missing.key.as_str())));
        }
        let channel = channel(input.channel.as_deref())?;
        let answers = current.purposes.iter().map(|p| (p.key.clone(), granted.contains(&p.key.as_str()))).collect();
        Ok(ValidConsent { notice_version: version, answers, channel })
    }
}

/// A customer's later change of optional purposes. Revoking `loyalty` files a reclamo instead
/// (art. 15): the shop must answer it, and suppress or stop using the data.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentsUpdate {
    /// Purpose key to `true` (grant) or `false` (revoke); at least one.
    #[schema(value_type = BTreeMap<String, bool>, required = true)]
    purposes: Option<BTreeMap<String, bool>>,
    /// How the customer made the change: `store`, `web` or `import`.
    #[schema(value_type = String, required = true)]
    channel: Option<String>,
}

/// A change of consents, validated against the notice in force.
pub struct ValidUpdate {
    /// Purposes to record, with their new answer (the required one only when granted).
    pub answers: Vec<(String, bool)>,
    /// Whether the required purpose is revoked.
    pub revokes_required: bool,
    pub channel: String,
}

impl ConsentsUpdate {
    pub fn validate(&self, current: &PrivacyNotice) -> AppResult<ValidUpdate> {
        let purposes = self.purposes.as_ref().filter(|p| !p.is_empty());
        let Some(purposes) = purposes else {
            return Err(AppError::bad_request(Msg::PrivacyNothingToChange));
        };
        let mut answers = Vec::new();
        let mut revokes_required = false;
        for (key, &granted) in purposes {
            let Some(purpose) = current.purpose(key) else {
                return Err(AppError::bad_request(Msg::PrivacyPurposeUnknown.with("purpose", key.as_str())));
            };
            // The required purpose is recorded when granted (a customer enrolled before the
            // notice existed); its revocation is a reclamo, not a record (docs/privacy.md).
            if purpose.required && !granted {
                revokes_required = true;
            } else {
                answers.push((key.clone(), granted));
            }
        }
        if answers.is_empty() && !revokes_required {
            return Err(AppError::bad_request(Msg::PrivacyNothingToChange));
        }
        Ok(ValidUpdate { answers, revokes_required, channel: channel(self.channel.as_deref())? })
    }
}

/// One recorded answer of a customer to a purpose.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentRecord {
    pub purpose: String,
    pub granted: bool,
    /// The notice version the customer answered.
    pub notice_version: i32,
    /// `store`, `web` or `import`.
    pub channel: String,
    pub recorded_at: DateTime<Utc>,
    /// The user who recorded it (`system` for the demo and imports run by the product).
    pub recorded_by: String,
    pub impersonated_by: Option<String>,
}

pub const CONSENT_COLUMNS: &str =
    "purpose, granted, notice_version, channel, recorded_at, recorded_by, impersonated_by";

impl ConsentRecord {
    pub fn from_row(row: &Row) -> Self {
        ConsentRecord {
            purpose: row.get("purpose"),
            granted: row.get("granted"),
            notice_version: row.get("notice_version"),
            channel: row.get("channel"),
            recorded_at: row.get("recorded_at"),
            recorded_by: row.get("recorded_by"),
            impersonated_by: row.get("impersonated_by"),
        }
    }
}

/// A customer's authorizations: the current answer to each purpose, and every answer recorded.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerConsents {
    pub customer_id: i64,
    /// The latest answer to each purpose, by purpose key.
    pub current: Vec<ConsentRecord>,
    /// Every answer, newest first.
    pub history: Vec<ConsentRecord>,
    /// The reclamo filed when the change revoked the required purpose; null otherwise.
    pub revocation_request_id: Option<i64>,
}
