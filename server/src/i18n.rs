//! The server's words in both languages. Every text the server sends a person (error answers,
//! result messages) is a [`Msg`] with a stable code and a Spanish and an English template; the
//! request's `Accept-Language` picks the language (Spanish unless it asks for English). Field
//! names inside a message are [`Field`]s, translated the same way. The client keeps its own
//! translation of every code and field (`client/src/i18n/*.json`, keys `errors.<code>` and
//! `fields.<name>`), which a test below checks.

use std::convert::Infallible;
use std::fmt::Write;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use serde_json::{Map, Value};

/// A language the server writes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    Es,
    En,
}

impl Lang {
    /// The language an `Accept-Language` header prefers among Spanish and English: the one with
    /// the highest weight, Spanish on a tie or when neither is named.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.unwrap_or_default().split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or_default().trim().to_ascii_lowercase();
            let lang = match tag.split('-').next() {
                Some("es") => Lang::Es,
                Some("en") => Lang::En,
                _ => continue,
            };
            let weight = pieces
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if weight > 0.0
                && best.is_none_or(|(w, l)| weight > w || (weight == w && lang == Lang::Es && l != Lang::Es))
            {
                best = Some((weight, lang));
            }
        }
        best.map(|(_, lang)| lang).unwrap_or_default()
    }

    pub fn from_headers(headers: &HeaderMap) -> Lang {
        Lang::from_accept_language(headers.get(axum::http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
    }

    pub fn tag(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
        }
    }
}

/// The request's language, for handlers that answer a text of their own.
impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(Lang::from_headers(&parts.headers))
    }
}

/// The parameters of a message, as the answer's `params` carries them.
pub type Params = Map<String, Value>;

macro_rules! catalogue {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($variant:ident = $code:literal { es: $es:literal, en: $en:literal },)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($variant,)* }

        impl $name {
            /// Every entry, for the tests that check both languages and the client.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable code (`customer.documentExists`), the same in every language.
            pub fn code(self) -> &'static str {
                match self { $($name::$variant => $code,)* }
            }

            /// The text in `lang`, with `{name}` where a parameter goes.
            pub fn template(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $(($name::$variant, Lang::Es) => $es, ($name::$variant, Lang::En) => $en,)*
                }
            }
        }
    };
}

catalogue! {
    /// A field of a request, as messages name it.
    pub enum Field {
        Name = "name" { es: "Nombre", en: "name" },
        Document = "document" { es: "Documento", en: "document" },
        Email = "email" { es: "Correo electrónico", en: "email" },
        Phone = "phone" { es: "Teléfono", en: "phone" },
        Address = "address" { es: "Dirección", en: "address" },
        Birthdate = "birthdate" { es: "Fecha de nacimiento", en: "birthdate" },
        Username = "username" { es: "Usuario", en: "username" },
        Password = "password" { es: "Contraseña", en: "password" },
        NewPassword = "newPassword" { es: "Nueva contraseña", en: "new password" },
        CurrentPassword = "currentPassword" { es: "Contraseña actual", en: "current password" },
        AdminPassword = "adminPassword" { es: "Contraseña del administrador", en: "admin password" },
        Prefix = "prefix" { es: "Prefijo", en: "prefix" },
        TaxId = "taxId" { es: "NIT", en: "tax ID" },
        LogoUrl = "logoUrl" { es: "URL del logo", en: "logo URL" },
        BusinessName = "businessName" { es: "Razón social", en: "business name" },
        Code = "code" { es: "Código", en: "code" },
        Description = "description" { es: "Descripción", en: "description" },
        Price = "price" { es: "Precio", en: "price" },
        PointsValue = "pointsValue" { es: "Valor en puntos", en: "points value" },
        ImageUrl = "imageUrl" { es: "URL de la imagen", en: "image URL" },
        CategoryId = "categoryId" { es: "Categoría", en: "category" },
        PosId = "posId" { es: "Punto de venta", en: "point of sale" },
        ProductId = "productId" { es: "Producto", en: "product" },
        CustomerId = "customerId" { es: "Cliente", en: "customer" },
        Cashier = "cashier" { es: "Cajero", en: "cashier" },
        CompanyId = "companyId" { es: "Empresa", en: "company" },
        Icon = "icon" { es: "Icono", en: "icon" },
        InvoiceReference = "invoiceReference" { es: "Referencia de factura", en: "invoice reference" },
        InvoiceAmount = "invoiceAmount" { es: "Valor de la factura", en: "invoice amount" },
        ReturnedAmount = "returnedAmount" { es: "Valor devuelto", en: "returned amount" },
        Text = "text" { es: "Texto de búsqueda", en: "search text" },
        Type = "type" { es: "Tipo", en: "type" },
        From = "from" { es: "Fecha inicial", en: "start date" },
        To = "to" { es: "Fecha final", en: "end date" },
        Page = "page" { es: "Página", en: "page" },
        PageSize = "pageSize" { es: "Tamaño de página", en: "page size" },
        Role = "role" { es: "Rol", en: "role" },
        PointsPerPeso = "pointsPerPeso" { es: "Puntos por peso", en: "points per peso" },
        RedemptionRate = "redemptionRate" { es: "Tasa de redención", en: "redemption rate" },
        CampaignMultiplier = "campaignMultiplier" { es: "Multiplicador de campaña", en: "campaign multiplier" },
        ExpirationPolicy = "expirationPolicy" { es: "Política de vencimiento", en: "expiration policy" },
        PointsExpirationDays = "pointsExpirationDays" { es: "Días de vigencia de los puntos", en: "points expiration days" },
        InactivityDays = "inactivityDays" { es: "Días de inactividad", en: "inactivity days" },
        FirstPurchaseBonusMultiplier = "firstPurchaseBonusMultiplier" { es: "Multiplicador de primera compra", en: "first-purchase multiplier" },
        BirthdayBonusMultiplier = "birthdayBonusMultiplier" { es: "Multiplicador de cumpleaños", en: "birthday multiplier" },
        RolePermissions = "rolePermissions" { es: "Permisos", en: "permissions" },
        TimeZone = "timeZone" { es: "Zona horaria", en: "time zone" },
        SupervisorUsername = "supervisorUsername" { es: "Usuario del supervisor", en: "supervisor username" },
        SupervisorPassword = "supervisorPassword" { es: "Contraseña del supervisor", en: "supervisor password" },
        PointsToRedeem = "pointsToRedeem" { es: "Puntos", en: "points" },
        Subject = "subject" { es: "Asunto", en: "subject" },
        Details = "details" { es: "Detalle", en: "details" },
        Reason = "reason" { es: "Motivo", en: "reason" },
        Answer = "answer" { es: "Respuesta", en: "answer" },
        MaxAccreditationsPerCustomerPerDay = "maxAccreditationsPerCustomerPerDay" { es: "Máximo de acreditaciones por cliente al día", en: "most accreditations per customer per day" },
        MaxPointsPerCustomerPerDay = "maxPointsPerCustomerPerDay" { es: "Máximo de puntos por cliente al día", en: "most points per customer per day" },
        Actor = "actor" { es: "Usuario", en: "user" },
        Action = "action" { es: "Acción", en: "action" },
        AlertOperationsPerDay = "alertOperationsPerDay" { es: "Operaciones por día antes de una alerta", en: "operations per day before an alert" },
        Status = "status" { es: "Estado", en: "status" },
        RetentionYears = "retentionYears" { es: "Años sin actividad antes de anonimizar", en: "years without activity before anonymising" },
        OpeningPoints = "openingPoints" { es: "Puntos iniciales", en: "opening points" },
        Consent = "consent" { es: "Consentimiento", en: "consent" },
    }
}

catalogue! {
    /// Every text the server sends a person.
    pub enum Msg {
        // Any request
        InvalidRequest = "request.invalid" { es: "La solicitud no es válida: {detail}", en: "invalid request: {detail}" },
        InvalidQuery = "request.invalidQuery" { es: "Los parámetros de la consulta no son válidos: {detail}", en: "invalid query parameters: {detail}" },
        JsonExpected = "request.jsonExpected" { es: "Se esperaba un cuerpo JSON (Content-Type: application/json).", en: "expected a JSON body (Content-Type: application/json)" },
        BodyUnreadable = "request.bodyUnreadable" { es: "No se pudo leer el cuerpo de la solicitud.", en: "request body could not be read" },
        BodyTooLarge = "request.bodyTooLarge" { es: "El cuerpo de la solicitud es demasiado grande.", en: "request body is too large" },
        InvalidPathId = "request.invalidPathId" { es: "El identificador de la ruta no es válido: debe ser un número entero positivo.", en: "invalid id in the path: expected a positive whole number" },
        NoSuchEndpoint = "request.noSuchEndpoint" { es: "Esta dirección de la API no existe.", en: "no such API endpoint" },
        MethodNotAllowed = "request.methodNotAllowed" { es: "Este método no está permitido en esta dirección.", en: "this method is not allowed on this address" },
        RequestFailed = "request.failed" { es: "La solicitud no se pudo atender ({status}).", en: "the request could not be served ({status})" },
        NumberOutOfRange = "request.numberOutOfRange" { es: "Un número está fuera del rango que se puede guardar.", en: "a number is out of the range that can be stored" },
        TextWithNul = "request.textWithNul" { es: "El texto no puede contener caracteres NUL.", en: "text must not contain NUL characters" },
        ConcurrentChange = "request.concurrentChange" { es: "El registro cambió al mismo tiempo; intente de nuevo.", en: "the record changed at the same time, please try again" },
        Internal = "server.internal" { es: "Error interno del servidor; intente de nuevo.", en: "internal server error, please try again" },
        Unavailable = "server.unavailable" { es: "El servicio no está disponible por el momento; intente de nuevo.", en: "service temporarily unavailable, please try again" },
        RecordExists = "record.exists" { es: "El registro ya existe.", en: "record already exists" },
        StatusInvalid = "list.statusInvalid" { es: "El estado debe ser «active» o «inactive».", en: "status must be 'active' or 'inactive'" },

        // Fields
        FieldInvalid = "field.invalid" { es: "«{field}» no tiene un valor válido.", en: "{field} has an invalid value" },
        FieldRequired = "field.required" { es: "Falta completar «{field}».", en: "{field} is required" },
        FieldTooLong = "field.tooLong" { es: "«{field}» admite como máximo {max} caracteres.", en: "{field} must be at most {max} characters" },
        FieldControlCharacters = "field.controlCharacters" { es: "«{field}» contiene caracteres de control.", en: "{field} contains control characters" },
        FieldInvisibleCharacters = "field.invisibleCharacters" { es: "«{field}» contiene caracteres invisibles o que cambian la dirección del texto.", en: "{field} contains invisible or text-direction characters" },
        FieldWholeNumber = "field.wholeNumber" { es: "«{field}» debe ser un número entero de 0 o más.", en: "{field} must be a whole number of 0 or more" },
        FieldTooLarge = "field.tooLarge" { es: "«{field}» es demasiado grande: el máximo es {max}.", en: "{field} is too large: the most is {max}" },
        FieldPositiveId = "field.positiveId" { es: "«{field}» debe ser un identificador válido.", en: "{field} must be a positive whole number" },
        FieldRange = "field.range" { es: "«{field}» debe estar entre {min} y {max}.", en: "{field} must be between {min} and {max}" },
        FieldStep = "field.step" { es: "«{field}» debe ser múltiplo de {step}.", en: "{field} must be a multiple of {step}" },
        FieldDays = "field.days" { es: "«{field}» debe ser un número entero de días entre 1 y 36500.", en: "{field} must be a whole number of days from 1 to 36500" },
        FieldDate = "field.date" { es: "«{field}» debe ser una fecha como AAAA-MM-DD.", en: "{field} must be a date as YYYY-MM-DD" },
        FieldUrl = "field.url" { es: "«{field}» debe ser una dirección https:// o una ruta de este sitio.", en: "{field} must be an https:// address or a path on this site" },
        PasswordLength = "field.passwordLength" { es: "«{field}» debe tener entre {min} y {max} caracteres.", en: "{field} must be {min} to {max} characters long" },
        UsernameShape = "field.usernameShape" { es: "El usuario admite hasta 50 letras, dígitos, '.', '_' o '-'.", en: "username must be at most 50 letters, digits, '.', '_' or '-'" },
        DocumentShape = "field.documentShape" { es: "El documento debe tener de 3 a 20 letras, dígitos o '-'.", en: "document must be 3 to 20 letters, digits or '-'" },
        EmailShape = "field.emailShape" { es: "El correo electrónico no es una dirección válida.", en: "email is not a valid address" },
        BirthdateShape = "field.birthdateShape" { es: "La fecha de nacimiento debe ser una fecha como 1990-04-12.", en: "birthdate must be a date like 1990-04-12" },
        BirthdateRange = "field.birthdateRange" { es: "La fecha de nacimiento debe estar entre 1900-01-01 y hoy.", en: "birthdate must be between 1900-01-01 and today" },
        PageInvalid = "field.page" { es: "La página debe ser un número entero desde 1.", en: "page must be a whole number from 1" },
        PageSizeInvalid = "field.pageSize" { es: "El tamaño de página debe ser 10, 25 o 50.", en: "pageSize must be 10, 25 or 50" },
        RoleInvalid = "field.role" { es: "El rol debe ser admin, supervisor o cajero.", en: "role must be one of admin, supervisor, cajero" },
        TypeInvalid = "field.transactionType" { es: "El tipo debe ser acreditación, redención, vencimiento, anulación, devolución, pérdida por supresión o saldo inicial.", en: "type must be accreditation, redemption, expiration, cancellation, return, forfeit or opening" },

        // Sessions
        NotLoggedIn = "auth.notLoggedIn" { es: "No ha iniciado sesión o la sesión expiró.", en: "not logged in or session expired" },
        Forbidden = "auth.forbidden" { es: "No tiene permiso para hacer esto.", en: "you are not allowed to do this" },
        SuperAdminMustImpersonate = "auth.superAdminMustImpersonate" { es: "Un superadministrador debe entrar primero a una empresa.", en: "a super admin must impersonate a company first" },
        LoginRequired = "auth.loginRequired" { es: "El usuario y la contraseña son obligatorios.", en: "username and password are required" },
        LoginControlCharacters = "auth.loginControlCharacters" { es: "El usuario contiene caracteres de control o invisibles.", en: "username contains control or invisible characters" },
        LoginFailed = "auth.loginFailed" { es: "Usuario o contraseña incorrectos.", en: "invalid username or password" },
        LoginLocked = "auth.locked" { es: "Demasiados intentos fallidos; intente de nuevo en {minutes} minuto(s).", en: "too many failed login attempts; try again in {minutes} minute(s)" },

        // Companies
        CompanyRequiredFields = "company.requiredFields" { es: "El nombre, el prefijo, el NIT y la contraseña del administrador son obligatorios.", en: "name, prefix, taxId and adminPassword are required" },
        CompanyNameAndTaxIdRequired = "company.nameAndTaxIdRequired" { es: "El nombre y el NIT son obligatorios.", en: "name and taxId are required" },
        CompanyNotFound = "company.notFound" { es: "Empresa no encontrada.", en: "company not found" },
        CompanyIdRequired = "company.idRequired" { es: "Falta la empresa.", en: "companyId is required" },
        CompanyNoAdmin = "company.noActiveAdmin" { es: "La empresa no tiene un administrador activo con el cual entrar.", en: "the company has no active admin to act as" },
        CompanySchemaExists = "company.schemaExists" { es: "Ya existe un esquema para este prefijo; pida al operador que lo elimine.", en: "a schema for this prefix already exists; ask the operator to remove it" },
        PrefixShape = "company.prefixShape" { es: "El prefijo debe tener de 2 a 30 letras minúsculas o dígitos y empezar por una letra.", en: "prefix must be 2 to 30 lowercase letters or digits, starting with a letter" },
        PrefixReserved = "company.prefixReserved" { es: "El prefijo '{prefix}' está reservado; elija otro.", en: "prefix '{prefix}' is reserved, choose another" },
        PrefixExists = "company.prefixExists" { es: "Ya existe una empresa con este prefijo.", en: "company prefix already exists" },
        SuperAdminExists = "superAdmin.exists" { es: "El superadministrador ya existe.", en: "super admin already exists" },
        StatsSortInvalid = "companyStats.sort" { es: "El orden debe ser uno de: {fields}.", en: "sort must be one of: {fields}" },
        StatsOrderInvalid = "companyStats.order" { es: "El sentido del orden debe ser asc o desc.", en: "order must be asc or desc" },

        // Customers
        CustomerNotFound = "customer.notFound" { es: "Cliente no encontrado.", en: "customer not found" },
        CustomerNameAndDocumentRequired = "customer.nameAndDocumentRequired" { es: "El nombre y el documento son obligatorios.", en: "name and document are required" },
        CustomerNameRequired = "customer.nameRequired" { es: "El nombre es obligatorio.", en: "name is required" },
        CustomerDocumentExists = "customer.documentExists" { es: "Ya existe un cliente con este documento.", en: "customer document exists" },
        CustomerInactiveExists = "customer.inactiveExists" { es: "Un cliente inactivo tiene este documento.", en: "an inactive customer has this document" },
        CustomerNotInactive = "customer.notInactive" { es: "No hay un cliente inactivo con este id.", en: "no inactive customer has this id" },

        // Data holders' requests (Ley 1581 de 2012)
        DataRequestNotFound = "dataRequest.notFound" { es: "Solicitud no encontrada.", en: "request not found" },
        DataRequestKindInvalid = "dataRequest.kindInvalid" { es: "El tipo debe ser «consulta» o «reclamo».", en: "kind must be 'consulta' or 'reclamo'" },
        DataRequestStatusInvalid = "dataRequest.statusInvalid" { es: "El estado debe ser «open», «incomplete», «answered» o «closed».", en: "status must be 'open', 'incomplete', 'answered' or 'closed'" },
        DataRequestActionInvalid = "dataRequest.actionInvalid" { es: "La acción debe ser «extend», «incomplete», «complete», «answer» o «close».", en: "action must be 'extend', 'incomplete', 'complete', 'answer' or 'close'" },
        DataRequestDocumentMismatch = "dataRequest.documentMismatch" { es: "El documento no es el del cliente elegido.", en: "the document is not the chosen customer's" },
        DataRequestAlreadyExtended = "dataRequest.alreadyExtended" { es: "El plazo de esta solicitud ya se prorrogó una vez; la ley no permite otra prórroga.", en: "this request's term was already extended once; the law allows no second extension" },
        DataRequestIncompleteOnlyReclamo = "dataRequest.incompleteOnlyReclamo" { es: "Solo un reclamo puede marcarse incompleto.", en: "only a reclamo can be marked incomplete" },
        DataRequestWrongStatus = "dataRequest.wrongStatus" { es: "La solicitud está en estado «{status}» y no admite esta acción.", en: "the request is '{status}' and does not allow this action" },

        // Users
        UserPasswordReset = "user.passwordReset" { es: "Contraseña cambiada; las sesiones del usuario terminaron.", en: "password changed; the user's sessions ended" },
        UserResetOwnPassword = "user.resetOwnPassword" { es: "Su propia contraseña se cambia con «Cambiar contraseña», dando la actual.", en: "change your own password with 'Change password', giving the current one" },
        UserPasswordChanged = "user.passwordChanged" { es: "Su contraseña cambió; sus otras sesiones terminaron.", en: "your password was changed; your other sessions ended" },
        CurrentPasswordIncorrect = "user.currentPasswordIncorrect" { es: "La contraseña actual no es correcta.", en: "the current password is incorrect" },
        // What a delete did (tenant/removal.rs)
        UserDeleted = "user.deleted" { es: "Usuario eliminado.", en: "user deleted" },
        UserDeactivated = "user.deactivated" { es: "El usuario tiene transacciones: quedó inactivo y ya no puede iniciar sesión.", en: "user has transactions: it was deactivated and can no longer log in" },
        CustomerDeleted = "customer.deleted" { es: "Cliente eliminado.", en: "customer deleted" },
        CustomerDeactivated = "customer.deactivated" { es: "El cliente tiene transacciones: quedó inactivo.", en: "customer has transactions: it was deactivated" },
        CategoryDeleted = "category.deleted" { es: "Categoría eliminada.", en: "category deleted" },
        CategoryDeactivated = "category.deactivated" { es: "La categoría la usan productos: quedó inactiva.", en: "category is in use by products: it was deactivated" },
        ProductDeleted = "product.deleted" { es: "Producto eliminado.", en: "product deleted" },
        ProductDeactivated = "product.deactivated" { es: "El producto tiene transacciones: quedó inactivo.", en: "product has transactions: it was made inactive" },
        PosDeleted = "pos.deleted" { es: "Punto de venta eliminado.", en: "point of sale deleted" },
        PosDeactivated = "pos.deactivated" { es: "El punto de venta tiene usuarios o transacciones: quedó inactivo.", en: "point of sale has users or transactions: it was deactivated" },
        UserNotFound = "user.notFound" { es: "Usuario no encontrado.", en: "user not found" },
        UserRequiredFields = "user.requiredFields" { es: "El usuario, la contraseña y el rol son obligatorios.", en: "username, password and role are required" },
        UserRoleRequired = "user.roleRequired" { es: "El rol es obligatorio.", en: "role is required" },
        UserPosRequired = "user.posRequired" { es: "El punto de venta es obligatorio para este rol.", en: "point of sale is required for this role" },
        UserLastAdmin = "user.lastAdmin" { es: "La empresa debe conservar al menos un administrador.", en: "the company must keep at least one admin" },
        UserDeleteSelf = "user.deleteSelf" { es: "No puede eliminarse a sí mismo.", en: "you cannot delete yourself" },
        UserExists = "user.exists" { es: "El usuario ya existe.", en: "user already exists" },
        UserInactiveExists = "user.inactiveExists" { es: "Un usuario inactivo tiene este nombre de usuario.", en: "an inactive user has this username" },
        UserNotInactive = "user.notInactive" { es: "No hay un usuario inactivo con este id.", en: "no inactive user has this id" },

        // Points of sale
        PosNotFound = "pos.notFound" { es: "Punto de venta no encontrado.", en: "point of sale not found" },
        PosNameRequired = "pos.nameRequired" { es: "El nombre del punto de venta es obligatorio.", en: "point of sale name is required" },
        PosExists = "pos.exists" { es: "El punto de venta ya existe.", en: "point of sale already exists" },
        PosInactiveExists = "pos.inactiveExists" { es: "Un punto de venta inactivo tiene este nombre.", en: "an inactive point of sale has this name" },
        PosNotInactive = "pos.notInactive" { es: "No hay un punto de venta inactivo con este id.", en: "no inactive point of sale has this id" },

        // Products and categories
        ProductNotFound = "product.notFound" { es: "Producto no encontrado.", en: "product not found" },
        ProductRequiredFields = "product.requiredFields" { es: "El código y el nombre son obligatorios.", en: "code and name are required" },
        ProductExists = "product.exists" { es: "Ya existe un producto con este código.", en: "product already exists" },
        ProductPointsRequired = "product.pointsRequired" { es: "Un producto activo necesita un valor en puntos de al menos 1.", en: "an active product needs a points value of at least 1" },
        ProductInactiveExists = "product.inactiveExists" { es: "Un producto inactivo tiene este código.", en: "an inactive product has this code" },
        ProductNotInactive = "product.notInactive" { es: "No hay un producto inactivo con este id.", en: "no inactive product has this id" },
        ProductInactive = "product.inactive" { es: "Este producto está inactivo y no se puede redimir.", en: "this product is inactive and cannot be redeemed" },
        ProductPointsChanged = "product.pointsChanged" { es: "El valor en puntos del producto cambió; recargue los productos.", en: "the product's points value has changed, please reload the products" },
        CategoryNotFound = "category.notFound" { es: "Categoría no encontrada.", en: "category not found" },
        CategoryRequiredFields = "category.requiredFields" { es: "El nombre y el icono son obligatorios.", en: "name and icon are required" },
        CategoryIconUnknown = "category.iconUnknown" { es: "El icono debe ser uno de: {icons}.", en: "icon must be one of: {icons}" },
        CategoryExists = "category.exists" { es: "La categoría ya existe.", en: "category already exists" },
        CategoryInactiveExists = "category.inactiveExists" { es: "Una categoría inactiva tiene este nombre.", en: "an inactive category has this name" },
        CategoryNotInactive = "category.notInactive" { es: "No hay una categoría inactiva con este id.", en: "no inactive category has this id" },

        // Settings
        ExpirationPolicyInvalid = "settings.expirationPolicy" { es: "La política de vencimiento debe ser none, fifo, inactivity o calendar.", en: "expirationPolicy must be one of none, fifo, inactivity, calendar" },
        PermissionsInvalid = "settings.permissions" { es: "Los permisos de {role} solo pueden incluir: {paths}.", en: "rolePermissions.{role} may hold only: {paths}" },
        ReturnOfSpentPointsInvalid = "settings.returnOfSpentPoints" { es: "La regla de devolución de puntos gastados debe ser refuse o negative.", en: "returnOfSpentPoints must be refuse or negative" },
        TimeZoneInvalid = "settings.timeZone" { es: "La zona horaria debe ser una zona IANA como America/Bogota.", en: "timeZone must be an IANA time zone such as America/Bogota" },

        // Points
        TransactionNotFound = "transaction.notFound" { es: "Transacción no encontrada.", en: "transaction not found" },
        InvoiceAmountNotPositive = "points.invoiceAmountNotPositive" { es: "El valor de la factura debe ser mayor que cero.", en: "invoice amount must be positive" },
        InvoiceAmountNotWhole = "points.invoiceAmountNotWhole" { es: "El valor de la factura debe ser un número entero de pesos.", en: "invoice amount must be a whole number of pesos" },
        InvoiceAmountTooLarge = "points.invoiceAmountTooLarge" { es: "El valor de la factura es demasiado grande: el máximo es {max} pesos.", en: "invoice amount is too large: the most is {max} pesos" },
        PostingTooLarge = "points.postingTooLarge" { es: "La operación daría demasiados puntos: el máximo de una operación es {max} puntos.", en: "this would post too many points: the most one posting may hold is {max} points" },
        BalanceTooLarge = "points.balanceTooLarge" { es: "El saldo del cliente superaría el máximo de {max} puntos.", en: "the customer's balance would exceed the most a balance may hold, {max} points" },
        PointsInvalid = "points.invalid" { es: "Ingrese puntos válidos.", en: "enter valid points" },
        InvoiceAlreadyCredited = "points.invoiceAlreadyCredited" { es: "La factura {reference} ya se acreditó en la transacción #{transactionId} del {date}.", en: "invoice {reference} was already credited in transaction #{transactionId} on {date}" },
        RulesNotSet = "points.rulesNotSet" { es: "El programa de puntos aún no está configurado: un administrador debe fijar los puntos por peso y la tasa de redención en Configuración > Reglas.", en: "the points program is not set up yet: an admin must set the points per peso and the redemption rate in Settings > Rules" },
        VelocityAccreditations = "points.velocityAccreditations" { es: "Este cliente ya recibió {today} acreditación(es) hoy y el límite es {limit} al día: un supervisor o administrador debe aprobar esta acreditación.", en: "this customer has already had {today} accreditation(s) today and the limit is {limit} a day: a supervisor or admin must approve this accreditation" },
        VelocityPoints = "points.velocityPoints" { es: "Este cliente ya recibió {today} puntos hoy; con los {points} de esta acreditación superaría el límite de {limit} puntos al día: un supervisor o administrador debe aprobarla.", en: "this customer has already been credited {today} points today; the {points} of this accreditation would exceed the limit of {limit} points a day: a supervisor or admin must approve it" },
        NotEnoughPoints = "points.notEnough" { es: "Puntos insuficientes.", en: "not enough points" },
        VoidOwnOnly = "void.ownOnly" { es: "Solo puede anular sus propias transacciones.", en: "you can only void your own transactions" },
        VoidApprovalRequired = "void.approvalRequired" { es: "El usuario y la contraseña del supervisor son obligatorios.", en: "supervisor username and password are required" },
        VoidIncorrectCredentials = "void.incorrectCredentials" { es: "Credenciales de supervisor incorrectas.", en: "incorrect supervisor credentials" },
        VoidAlreadyVoided = "void.alreadyVoided" { es: "Esta transacción ya fue anulada.", en: "this transaction was already voided" },
        VoidPointsSpent = "void.pointsSpent" { es: "Los puntos de esta acreditación ya se redimieron o vencieron, por eso no se puede anular.", en: "the points of this accreditation were already redeemed or expired, so it cannot be voided" },
        VoidNotVoidable = "void.notVoidable" { es: "Las transacciones de vencimiento y de anulación no se pueden anular.", en: "expiration and cancellation transactions cannot be voided" },
        Voided = "void.done" { es: "Transacción anulada.", en: "transaction voided" },
        VoidFullyReturned = "void.fullyReturned" { es: "Esta acreditación ya se devolvió completa: no queda nada por anular.", en: "this accreditation was fully returned: nothing is left to void" },
        ReturnNotAccreditation = "return.notAccreditation" { es: "Solo se pueden registrar devoluciones de acreditaciones.", en: "only accreditations can have returns" },
        ReturnNotVoidable = "return.notVoidable" { es: "Una devolución no se puede anular.", en: "a return cannot be voided" },
        ReturnOwnOnly = "return.ownOnly" { es: "Solo puede registrar devoluciones de sus propias acreditaciones.", en: "you can only return your own accreditations" },
        ReturnOfVoided = "return.voided" { es: "Esta acreditación fue anulada: no admite devoluciones.", en: "this accreditation was voided: nothing can be returned" },
        ReturnAmountInvalid = "return.amountInvalid" { es: "El valor devuelto debe ser un número entero de pesos mayor que cero.", en: "the returned amount must be a whole number of pesos greater than zero" },
        ReturnAmountExceeds = "return.amountExceeds" { es: "El valor devuelto supera lo que queda de la factura: quedan {left} pesos por devolver.", en: "the returned amount exceeds what is left of the invoice: {left} pesos are left to return" },
        ReturnPointsSpent = "return.pointsSpent" { es: "El cliente ya gastó {missing} de los {points} puntos que esta devolución revierte; la devolución no se registró.", en: "the customer already spent {missing} of the {points} points this return reverses; the return was not recorded" },
        NegativeBalance = "points.negativeBalance" { es: "El saldo del cliente es negativo ({balance} puntos) por una devolución: no puede redimir hasta que vuelva a ser positivo.", en: "the customer's balance is negative ({balance} points) after a return: no redemptions until it is positive again" },

        // Alerts
        AlertNotFound = "alert.notFound" { es: "Alerta no encontrada.", en: "alert not found" },
        AlertStatusInvalid = "alert.statusInvalid" { es: "El estado de una alerta debe ser «new» o «reviewed».", en: "an alert's status must be 'new' or 'reviewed'" },
        AlertKindInvalid = "alert.kindInvalid" { es: "El tipo de alerta debe ser customerOperations, cashierRepeats, refundAfterRedemption o invoiceReassigned.", en: "the alert kind must be customerOperations, cashierRepeats, refundAfterRedemption or invoiceReassigned" },
        ExpirationNone = "expiration.none" { es: "La política de vencimiento es 'none': no venció ningún punto.", en: "the expiration policy is 'none': no points expire" },
        ExpirationDone = "expiration.done" { es: "Vencieron {points} puntos de {customers} clientes.", en: "{points} points of {customers} customers expired" },
        IdempotencyKeyShape = "idempotency.keyShape" { es: "Idempotency-Key debe tener de 1 a 200 caracteres visibles.", en: "Idempotency-Key must be 1 to 200 visible characters" },
        IdempotencyInProgress = "idempotency.inProgress" { es: "La solicitud con esta Idempotency-Key aún está en curso; intente de nuevo.", en: "the request with this Idempotency-Key is still in progress, please retry" },
        CustomerAlreadySuppressed = "customer.alreadySuppressed" { es: "Los datos de este cliente ya fueron suprimidos.", en: "this customer's data was already suppressed" },
        CustomerSuppressedDeleted = "customer.suppressedDeleted" { es: "El cliente no tenía historial: se eliminó.", en: "the customer had no history: it was deleted" },
        CustomerSuppressedAnonymised = "customer.suppressedAnonymised" { es: "Los datos personales del cliente se anonimizaron; su historial de puntos se conserva sin ellos.", en: "the customer's personal data was anonymised; its points history is kept without it" },
        CustomerSuppressedNoReactivate = "customer.suppressedNoReactivate" { es: "Los datos de este cliente fueron suprimidos: no se puede reactivar.", en: "this customer's data was suppressed: it cannot be reactivated" },
        IdempotencyKeyReused = "idempotency.keyReused" { es: "Esta Idempotency-Key ya se usó para otra solicitud; use una nueva.", en: "this Idempotency-Key was already used for a different request; use a new key" },

        // Import of customers
        ImportUnreadable = "import.unreadable" { es: "El archivo no se pudo leer: envíe un CSV en UTF-8 o un XLSX.", en: "the file could not be read: send a UTF-8 CSV or an XLSX file" },
        ImportNoHeader = "import.noHeader" { es: "El archivo no tiene una fila de encabezado con los nombres de las columnas.", en: "the file has no header row naming its columns" },
        ImportUnknownColumn = "import.unknownColumn" { es: "La columna «{column}» no es conocida: use documento, nombre, correo, telefono, direccion, fecha_nacimiento, puntos o consentimiento.", en: "the column '{column}' is unknown: use document, name, email, phone, address, birthdate, points or consent" },
        ImportRepeatedColumn = "import.repeatedColumn" { es: "La columna «{column}» aparece dos veces en el encabezado.", en: "the column '{column}' appears twice in the header" },
        ImportMissingColumns = "import.missingColumns" { es: "El encabezado debe tener las columnas documento y nombre.", en: "the header must have the columns document and name" },
        ImportOnExistingInvalid = "import.onExistingInvalid" { es: "onExisting debe ser «update» o «skip».", en: "onExisting must be 'update' or 'skip'" },
        ImportConsentInvalid = "import.consentInvalid" { es: "El consentimiento debe ser store, web o import.", en: "consent must be store, web or import" },
        ImportConsentMissing = "import.consentMissing" { es: "Falta el consentimiento del cliente: llene la columna consentimiento (store, web o import) o elija un canal para todo el archivo.", en: "the customer's consent is missing: fill the consent column (store, web or import) or choose a channel for the whole file" },
        ImportRowUnreadable = "import.rowUnreadable" { es: "La fila no se pudo leer (el texto no está en UTF-8).", en: "the row could not be read (the text is not UTF-8)" },
        OpeningNotVoidable = "import.openingNotVoidable" { es: "Un saldo inicial importado no se puede anular.", en: "an imported opening balance cannot be voided" },
        ImportDuplicateDocument = "import.duplicateDocument" { es: "El documento se repite en el archivo: ya está en la línea {first}.", en: "the document is repeated in the file: it is already on line {first}" },

        // API keys and the POS API (docs/integration.md)
        ApiKeyNameRequired = "apiKey.nameRequired" { es: "El nombre de la clave es obligatorio.", en: "the key's name is required" },
        ApiKeyPosRequired = "apiKey.posRequired" { es: "El punto de venta de la clave es obligatorio.", en: "the key's point of sale is required" },
        ApiKeyExists = "apiKey.exists" { es: "Ya existe una clave de API con este nombre.", en: "an API key with this name already exists" },
        ApiKeyNotFound = "apiKey.notFound" { es: "Clave de API no encontrada.", en: "API key not found" },
        ApiKeyInvalid = "apiKey.invalid" { es: "Falta la clave de API o no es válida (Authorization: Bearer lk_...).", en: "the API key is missing or not valid (Authorization: Bearer lk_...)" },
        ApiKeyPosInactive = "apiKey.posInactive" { es: "El punto de venta de esta clave está inactivo.", en: "this key's point of sale is inactive" },
        ApiKeyRateLimited = "apiKey.rateLimited" { es: "Esta clave hizo más de {limit} solicitudes en un minuto; intente de nuevo en un momento.", en: "this key made more than {limit} requests in a minute; try again shortly" },
        IdempotencyKeyRequired = "idempotency.keyRequired" { es: "El encabezado Idempotency-Key es obligatorio.", en: "the Idempotency-Key header is required" },
        PosApiRewardRequired = "posApi.rewardRequired" { es: "Indique points o productCode, no ambos.", en: "give points or productCode, not both" },

        // Webhooks
        WebhookNotFound = "webhook.notFound" { es: "Webhook no encontrado.", en: "webhook not found" },
        WebhookDeliveryNotFound = "webhook.deliveryNotFound" { es: "Envío de webhook no encontrado.", en: "webhook delivery not found" },
        WebhookUrlInvalid = "webhook.urlInvalid" { es: "La dirección del webhook debe ser una URL https válida de hasta 2000 caracteres.", en: "the webhook address must be a valid https URL of at most 2000 characters" },
        WebhookUrlNotHttps = "webhook.urlNotHttps" { es: "La dirección del webhook debe usar https.", en: "the webhook address must use https" },
        WebhookUrlPrivate = "webhook.urlPrivate" { es: "La dirección del webhook no puede ser privada, local ni de loopback.", en: "the webhook address cannot be a private, local or loopback address" },
        WebhookEventsEmpty = "webhook.eventsEmpty" { es: "Elija al menos un evento para el webhook.", en: "choose at least one event for the webhook" },
        WebhookEventUnknown = "webhook.eventUnknown" { es: "Evento de webhook desconocido: {event}.", en: "unknown webhook event: {event}" },
        WebhookExpiringDays = "webhook.expiringDays" { es: "Los días de aviso antes del vencimiento deben estar entre 1 y {max}.", en: "the days of notice before expiry must be between 1 and {max}" },

        // Privacy notice and authorizations (Ley 1581 de 2012)
        PrivacyNoticeNotFound = "privacy.noticeNotFound" { es: "Aviso de privacidad no encontrado.", en: "privacy notice not found" },
        PrivacyTextRequired = "privacy.textRequired" { es: "El texto del aviso es obligatorio (hasta 20.000 caracteres).", en: "the notice text is required (at most 20,000 characters)" },
        PrivacyPurposeKeyInvalid = "privacy.purposeKeyInvalid" { es: "La finalidad «{purpose}» no es válida: de 2 a 30 letras minúsculas, dígitos o «_», empezando por una letra, sin repetirse.", en: "the purpose '{purpose}' is not valid: 2 to 30 lower-case letters, digits or '_', starting with a letter, not repeated" },
        PrivacyPurposeDescriptionRequired = "privacy.purposeDescriptionRequired" { es: "La finalidad «{purpose}» necesita una descripción (hasta 500 caracteres).", en: "the purpose '{purpose}' needs a description (at most 500 characters)" },
        PrivacyTooManyPurposes = "privacy.tooManyPurposes" { es: "Un aviso puede tener como máximo {max} finalidades.", en: "a notice can have at most {max} purposes" },
        PrivacyLoyaltyPurposeMissing = "privacy.loyaltyPurposeMissing" { es: "El aviso debe incluir la finalidad «loyalty» (el programa de fidelización).", en: "the notice must include the purpose 'loyalty' (the loyalty program)" },
        PrivacyConsentRequired = "privacy.consentRequired" { es: "Para inscribir al cliente hay que registrar su autorización al aviso de privacidad vigente.", en: "enrolling a customer needs their consent to the current privacy notice" },
        PrivacyNoticeOutdated = "privacy.noticeOutdated" { es: "La autorización se refiere a la versión {given} del aviso de privacidad, pero la vigente es la {current}: muestre al cliente el aviso vigente.", en: "the consent refers to version {given} of the privacy notice but version {current} is in force: show the customer the current notice" },
        PrivacyPurposeRequired = "privacy.purposeRequired" { es: "Sin autorización para la finalidad obligatoria «{purpose}» no se puede inscribir al cliente.", en: "the customer cannot be enrolled without consent to the required purpose '{purpose}'" },
        PrivacyPurposeUnknown = "privacy.purposeUnknown" { es: "La finalidad «{purpose}» no está en el aviso de privacidad vigente.", en: "the purpose '{purpose}' is not in the current privacy notice" },
        PrivacyChannelInvalid = "privacy.channelInvalid" { es: "El canal debe ser «store», «web» o «import».", en: "channel must be 'store', 'web' or 'import'" },
        PrivacyNothingToChange = "privacy.nothingToChange" { es: "Indique al menos una finalidad que autorizar o revocar.", en: "name at least one purpose to grant or revoke" },
    }
}

impl Msg {
    /// The text in `lang` with its parameters filled in. A parameter named `field` holds a
    /// [`Field`] code and is written as that field's name in `lang`.
    pub fn render(self, lang: Lang, params: &Params) -> String {
        let template = self.template(lang);
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let Some(len) = rest[start..].find('}') else { break };
            let name = &rest[start + 1..start + len];
            match params.get(name) {
                Some(Value::String(s)) if name == "field" => {
                    out.push_str(Field::from_code(s).map(|f| f.template(lang)).unwrap_or(s));
                }
                Some(Value::String(s)) => out.push_str(s),
                Some(Value::Number(n)) => write_number(&mut out, n, lang),
                Some(other) => out.push_str(&other.to_string()),
                None => out.push_str(&rest[start..=start + len]),
            }
            rest = &rest[start + len + 1..];
        }
        out.push_str(rest);
        // A message that opens with a field's name starts with a capital letter.
        match out.chars().next() {
            Some(first) if first.is_lowercase() && lang == Lang::Es => {
                first.to_uppercase().chain(out.chars().skip(1)).collect()
            }
            _ => out,
        }
    }
}

impl Field {
    pub fn from_code(code: &str) -> Option<Field> {
        Field::ALL.iter().copied().find(|f| f.code() == code)
    }
}

/// Whole numbers of five digits or more get the language's thousands separator.
fn write_number(out: &mut String, n: &serde_json::Number, lang: Lang) {
    let Some(value) = n.as_i64() else {
        let _ = write!(out, "{n}");
        return;
    };
    let digits = value.unsigned_abs().to_string();
    if value < 0 {
        out.push('-');
    }
    if digits.len() < 5 {
        out.push_str(&digits);
        return;
    }
    let separator = if lang == Lang::Es { '.' } else { ',' };
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(separator);
        }
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::json;

    use super::*;

    fn placeholders(text: &str) -> BTreeSet<&str> {
        text.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }

    #[test]
    fn every_message_and_field_has_both_languages_with_the_same_parameters() {
        for msg in Msg::ALL {
            let (es, en) = (msg.template(Lang::Es), msg.template(Lang::En));
            assert!(!es.trim().is_empty() && !en.trim().is_empty(), "{}", msg.code());
            assert_ne!(es, en, "{} is not translated", msg.code());
            assert_eq!(placeholders(es), placeholders(en), "{}", msg.code());
        }
        for field in Field::ALL {
            assert!(!field.template(Lang::Es).is_empty() && !field.template(Lang::En).is_empty(), "{}", field.code());
        }
    }

    #[test]
    fn codes_are_unique() {
        let codes: BTreeSet<_> = Msg::ALL.iter().map(|m| m.code()).collect();
        assert_eq!(codes.len(), Msg::ALL.len());
        let fields: BTreeSet<_> = Field::ALL.iter().map(|f| f.code()).collect();
        assert_eq!(fields.len(), Field::ALL.len());
    }

    /// The client shows its own translation of each code and field name; a code it lacks would
    /// fall back to the server's text, so every one must be there in both languages.
    #[test]
    fn the_client_translates_every_code_and_field() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../client/src/i18n");
        for lang in ["es", "en"] {
            let text = std::fs::read_to_string(dir.join(format!("{lang}.json"))).expect("client translations");
            let json: Value = serde_json::from_str(&text).expect("client translations are JSON");
            let lookup = |path: &str| {
                path.split('.').try_fold(&json, |node, key| node.get(key)).and_then(Value::as_str).map(str::to_owned)
            };
            for msg in Msg::ALL {
                let client = lookup(&format!("errors.{}", msg.code()));
                let client = client.unwrap_or_else(|| panic!("{lang}.json lacks errors.{}", msg.code()));
                let server: BTreeSet<_> = placeholders(msg.template(Lang::En)).into_iter().map(str::to_owned).collect();
                let ours: BTreeSet<_> = client
                    .split("{{")
                    .skip(1)
                    .filter_map(|s| s.split_once("}}").map(|(name, _)| name.trim().to_owned()))
                    .collect();
                assert_eq!(ours, server, "{lang}.json errors.{} has other parameters than the server's", msg.code());
            }
            for field in Field::ALL {
                assert!(
                    lookup(&format!("fields.{}", field.code())).is_some(),
                    "{lang}.json lacks fields.{}",
                    field.code()
                );
            }
        }
    }

    #[test]
    fn accept_language_picks_spanish_unless_english_is_preferred() {
        assert_eq!(Lang::from_accept_language(None), Lang::Es);
        assert_eq!(Lang::from_accept_language(Some("en")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("en-US,en;q=0.9")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("es-CO,es;q=0.9,en;q=0.8")), Lang::Es);
        assert_eq!(Lang::from_accept_language(Some("fr, en;q=0.5")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("de")), Lang::Es);
        assert_eq!(Lang::from_accept_language(Some("en;q=0")), Lang::Es);
    }

    #[test]
    fn parameters_fill_in_with_translated_fields_and_grouped_numbers() {
        let params = json!({ "field": "adminPassword", "min": 8, "max": 128 });
        let params = params.as_object().unwrap();
        assert_eq!(
            Msg::PasswordLength.render(Lang::Es, params),
            "«Contraseña del administrador» debe tener entre 8 y 128 caracteres."
        );
        assert_eq!(Msg::PasswordLength.render(Lang::En, params), "admin password must be 8 to 128 characters long");
        let params = json!({ "max": 1_000_000_000_000i64 });
        assert_eq!(
            Msg::InvoiceAmountTooLarge.render(Lang::Es, params.as_object().unwrap()),
            "El valor de la factura es demasiado grande: el máximo es 1.000.000.000.000 pesos."
        );
    }
}
