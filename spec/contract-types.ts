// Generated from spec/device-http-interface.openapi.yaml by `npm run types` (openapi-typescript).
// Do not edit: change the document and run `npm run types`. Friendly aliases: spec/types.ts.

export interface paths {
    "/api/v1/{accessToken}/telemetry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload telemetry
         * @description Specification: the body is one of (a) an object of key-value pairs, (b) an array of such
         *     objects, (c) an object with `ts` (integer, ms) and `values` (object of key-value pairs).
         *     With forms (a) and (b) the server timestamp is assigned to all data; with form (c) the
         *     supplied ts is used. ThingsBoard also accepts an array mixing (a) and (c), treats an object
         *     carrying both `ts` and `values` as form (c) (other keys ignored), stores `{"ts": 1}` without
         *     `values` as a key named `ts`, and silently skips `null` values.
         *     Numbers are typed from their text (see the document's description): `42.0` is a DOUBLE,
         *     `73` and `1e2` LONGs with every digit of the 64-bit range, larger integers STRINGs. In form
         *     (c), `ts` must be an integer within ±(2^53-1) (so `{"ts":1e300,...}` is 400, not stored).
         *     ThingsBoard answers 200 with an empty body once the data is queued; dhi once it is stored.
         */
        post: operations["postTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read client-side and shared attributes
         * @description Specification: `clientKeys` and `sharedKeys` are comma-separated lists of keys; the
         *     response groups the found attributes by kind, the client group under `client`. Keys that
         *     are requested and not found are not reported. ThingsBoard (gap): the shared group stands
         *     under `shared`; an empty group is omitted; with neither parameter every client and shared
         *     attribute is returned; nothing found gives `{}`. Keys may also be repeated parameters
         *     (`sharedKeys=a&sharedKeys=b`, joined with commas as Spring binds them); a list is split on
         *     commas as ThingsBoard's Java `split(",")` does: nothing is trimmed (`clientKeys=a, b` asks
         *     for `a` and ` b`), empty items match no key, trailing empty items are dropped, and a list
         *     with no key (`clientKeys=,`) counts as absent. Unknown parameters are ignored. Values print from their
         *     type: a double posted as `42.0` reads back as `42.0` (ThingsBoard's msa HttpClientTest),
         *     `9223372036854775807` with every digit; any key, `__proto__` included, is returned.
         */
        get: operations["getAttributes"];
        put?: never;
        /**
         * Upload client-side attributes
         * @description Specification: the body is an object of client-side attribute key-value pairs.
         *     ThingsBoard answers 200 with an empty body; `null` values are skipped; numbers and numeric
         *     strings are typed from their text as for telemetry; an array or a primitive is rejected (ThingsBoard 500, dhi 400 as the specification's rule for an invalid body).
         */
        post: operations["postAttributes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/attributes/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Long-poll for shared attribute updates
         * @description Specification: a long-poll subscription. A response arrives when a server-side component
         *     (REST API or Rule Chain) changes a shared attribute, or when the timeout elapses; its body
         *     is the JSON object of the changed shared attributes. ThingsBoard (gap): the object is flat
         *     (`{"k": v}`, not wrapped in `shared`), removed keys are listed under `deleted`, and a poll
         *     that times out is answered 408 with an empty body. Changes made while no poll is open are
         *     not queued. Values print from their type, as for operation 3 (`42.0` stays `42.0`). A poll
         *     whose device is deleted meanwhile ends 403 with the text `Device was deleted!`.
         *     dhi: `timeout` defaults to 60000 ms and is clamped to the server's maximum
         *     (300000 by default); 0 means the default.
         */
        get: operations["subscribeAttributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/rpc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Long-poll for server-side RPC commands
         * @description Specification: a long-poll subscription answered with the RPC request object (id, method,
         *     params) when a server-side RPC command is issued for the device, or with a timeout message
         *     when no request arrives within the timeout. ThingsBoard (gap): the timeout answer is 408
         *     with an empty body; a command issued while no poll is open is delivered at once on the next
         *     poll; ids are per-device integers. One command goes to exactly one poll. `params` is printed
         *     from the text the server-side caller sent, so `1.0` arrives as `1.0` and big integers keep
         *     every digit (ThingsBoard prints them from Jackson's text of the caller's params: the same
         *     for these; an exponent such as `1e2` dhi passes on as sent). A poll whose device is deleted
         *     meanwhile ends 403 `Device was deleted!`. dhi: `timeout` defaults to 60000 ms and is clamped
         *     to the server's maximum; 0 means the default.
         */
        get: operations["subscribeRpc"];
        put?: never;
        /**
         * Device-side RPC request to the server
         * @description Specification: the body is `{method, params}`; a rule node on the server handles the
         *     request and produces the reply, a valid JSON document whose content is specific to that
         *     rule node. ThingsBoard (gap): `params` is mandatory; with no rule replying, the request
         *     ends in 503 when the server's async timeout elapses. dhi: built-in rules `getCurrentTime`
         *     (`{"time": <ms>}`) and `echo` (the params, each number as the device sent it: `1.0` stays
         *     `1.0`), plus rules set through /api/dhi/rules; a method with no rule is answered 503 after
         *     the client RPC timeout, or 403 `Device was deleted!` when the device is deleted meanwhile.
         */
        post: operations["postClientRpc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/rpc/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to a server-side RPC command
         * @description Specification: `<id>` is the integer id of the RPC request received through operation 5;
         *     the body is a JSON document with the device's reply. ThingsBoard (gap): 200 with an empty
         *     body, also for an id that is unknown or already answered (the reply is then dropped).
         *     A non-integer id is 400. The two-way REST caller receives the reply as the bytes the
         *     device sent (`{"v":12345678901234567890,"d":1.0}` arrives unchanged); ThingsBoard parses
         *     and re-prints it with Jackson, which keeps those numbers but drops insignificant whitespace.
         */
        post: operations["postRpcReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start claiming
         * @description Specification: `secretKey` (default empty string) and `durationMs` (default the system
         *     parameter device.claim.duration) are both optional. ThingsBoard (gap): the body itself may
         *     be absent; the answer is 200 with an empty body; the default duration is 86400000 ms (0 or
         *     less also means the default). While a window is open a second claim keeps the first; a
         *     device a customer already owns opens none. A customer user then claims the device by name
         *     within the window (control API).
         */
        post: operations["postClaim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/provision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision a new device
         * @description Specification: no access token in the path; the body carries deviceName,
         *     provisionDeviceKey and provisionDeviceSecret. ThingsBoard (gap): every business outcome is
         *     200 with `status` SUCCESS (credentials of the device), NOT_FOUND ("Provision data was not
         *     found!": unknown key, wrong secret, or provisioning disabled) or FAILURE ("Failed to
         *     provision device!": the name exists under ALLOW_CREATE_NEW_DEVICES, the device is missing
         *     or already provisioned under CHECK_PRE_PROVISIONED_DEVICES, or the credentials are taken or
         *     invalid). A missing key or secret field is 400 (ThingsBoard 500).
         *
         *     Credentials of a new device (ThingsBoard): when the body carries credential data, the
         *     `credentialsType` it names - ACCESS_TOKEN (`token`), X509_CERTIFICATE (`hash`: the
         *     certificate; its credentials id is the SHA3-256 hex of the certificate text without PEM
         *     armour and line breaks) or MQTT_BASIC (`clientId`, `username`, `password`; answered as the
         *     JSON object `{clientId, userName, password}`); otherwise a generated access token. A device
         *     with X.509 or MQTT basic credentials has no access token: the HTTP device API answers 401
         *     for any token, as ThingsBoard does for credentials that are not an access token.
         */
        post: operations["postProvision"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/firmware": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download firmware
         * @description Specification: used by the device after the service sets the fw_* shared attributes of a
         *     firmware update; `title` and `version` name the target firmware. ThingsBoard (gap): the
         *     package assigned to the device (else to its profile) is returned as bytes with
         *     `Content-Disposition: attachment;filename=<file>` and `x-filename`; with `size` > 0 the
         *     bytes `[chunk*size, min(len, (chunk+1)*size))` are returned, a chunk past the end is 200
         *     with an empty body, `size` 0 returns the whole file; nothing assigned is 404; a `title` or
         *     `version` other than the assigned package's (case-sensitive) is 400.
         */
        get: operations["getFirmware"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/{accessToken}/software": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download software (the firmware operation's twin)
         * @description ThingsBoard: the same as the firmware download for the device's (or its profile's) software
         *     package, announced through the sw_* shared attributes.
         */
        get: operations["getSoftware"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @description ThingsBoard - returns a JWT pair; bad credentials are 401 with errorCode 10.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or update a customer */
        post: operations["saveCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        /** @description Deletes the customer and its users; its devices become unassigned. */
        delete: operations["deleteCustomer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a user (CUSTOMER_USER needs customerId) */
        post: operations["saveUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/system/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The server's version and edition
         * @description As ThingsBoard CE answers it - `type` CE; `version` is the ThingsBoard API dhi follows (4.4.0),
         *     `artifact` and `name` say it is dhi.
         */
        get: operations["getSystemVersionInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device-connectivity/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The commands a device would run to publish telemetry
         * @description ThingsBoard's DeviceConnectivityController for dhi's own listeners - for a device of a DEFAULT
         *     profile with an access token, `{"http": {"http": "curl -v -X POST http://<host>[:<port>]/api/v1/<token>/telemetry
         *     --header Content-Type:application/json --data \"{temperature:25}\"", "https": ...}}` (https when
         *     the HTTPS listener is on; the port left out when it is the scheme's default; the host the
         *     request's). The MQTT and CoAP entries are absent, as in a ThingsBoard with those transports
         *     off; a profile of another transport answers none (LWM2M and SNMP `Check documentation`), and
         *     other credentials none.
         */
        get: operations["getDevicePublishTelemetryCommands"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apiKey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an API key for a user (its value is answered once), or update one
         * @description ThingsBoard 4.3+. A new key's `value` (64 random bytes, base64url) is answered here and never
         *     again (dhi keeps only its SHA-256); a request then authenticates with `X-Authorization:
         *     ApiKey <value>` (or `Authorization:`). With an `id`, only `description` and `enabled` change
         *     (`value` is null). A key is refused (401) when disabled (`User account is not active`), past
         *     its `expirationTime` (`API key is expired`; 0 never expires), or when its user's credentials
         *     are disabled. A customer user may only keep keys of its own.
         */
        post: operations["saveApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apiKeys/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a user's API keys (without their values)
         * @description Searched by description (case-insensitive substring).
         */
        get: operations["getUserApiKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apiKey/{id}/description": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change an API key's description
         * @description The body is the new description as text, whatever the Content-Type (Spring binds it as a String); it must not be blank.
         */
        put: operations["updateApiKeyDescription"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apiKey/{id}/enabled/{enabledValue}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Enable or disable an API key */
        put: operations["enableApiKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apiKey/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an API key */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/{userId}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant admin obtains a user's JWT pair */
        get: operations["getUserToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new JWT pair for a refresh token
         * @description ThingsBoard (RefreshTokenProcessingFilter) - body `{refreshToken}`; an invalid one is 401
         *     errorCode 10, an expired one errorCode 11; a user whose credentials are disabled is 401
         *     `User account is not active`, a token issued before its user changed password (or had the
         *     credentials disabled) or before its session logged out is 401 `Token is outdated` (errorCode 10).
         */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user of the JWT
         * @description ThingsBoard - tenant admins and customer users.
         */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out
         * @description ThingsBoard - 200 with an empty body. The token's session is outdated (UserSessionInvalidationEvent):
         *     the access and refresh tokens of this pair issued before the logout's second are refused
         *     from then on (401 errorCode 11, refresh errorCode 10); other sessions of the user go on.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/changePassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password of the user of the JWT
         * @description ThingsBoard - body `{currentPassword, newPassword}`. 400 `Current password doesn't match!`
         *     (also for a user that has no password), 400 with the password policy's message
         *     (`Password must be 6 or more characters in length.`, `Password must be no more than 72
         *     characters in length.`), 400 `New password should be different from existing!`. On success a
         *     new JWT pair; every token of the user issued before that second is refused from then on
         *     (UserCredentialsInvalidationEvent). dhi - the default tenant admin's password is set from
         *     `--admin-password` again at the next start.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/noauth/userPasswordPolicy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The password policy
         * @description ThingsBoard - without a token; dhi has ThingsBoard's default policy (6 to 72 characters, no other rule).
         */
        get: operations["getUserPasswordPolicy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/noauth/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check a user activation token (the link a new user follows)
         * @description ThingsBoard's redirects to its web UI - a token that names no user is 409 (empty body), an
         *     expired one 303 to `/activationLinkExpired`, a valid one 303 to
         *     `/login/createPassword?activateToken=<token>` (dhi has no web UI: a client activates with
         *     `POST /api/noauth/activate`).
         */
        get: operations["checkActivateToken"];
        put?: never;
        /**
         * Activate a user - set its first password - and log it in
         * @description ThingsBoard (AuthController.activateUser) - the token of the user's activation link
         *     (`GET /api/user/{userId}/activationLink`) and a password that follows the password policy;
         *     answers a JWT pair. An unknown token is 400 `Unable to find user credentials by activateToken
         *     [<token>]`, a used one `User credentials already activated`, an expired one (24 h) `Activation
         *     token expired`. No mail is sent (`sendActivationMail` is accepted and has no effect).
         */
        post: operations["activateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/noauth/resetPasswordByEmail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request a password reset e-mail
         * @description ThingsBoard has it (without a token); dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["requestResetPasswordByEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/noauth/resetPassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check a password reset token
         * @description ThingsBoard has it (without a token); dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["checkResetToken"];
        put?: never;
        /**
         * Reset a password with a reset token
         * @description ThingsBoard has it (without a token); dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of customers
         * @description ThingsBoard - paged, searched by title, sortable; with `customerIds` instead, the plain list of those customers.
         */
        get: operations["getCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customers by ids
         * @description ThingsBoard - the customers among the ids that exist.
         */
        get: operations["getCustomersByIds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer of that title
         * @description ThingsBoard - 404 "Customer with title [...] is not found".
         */
        get: operations["getTenantCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/shortInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer's title and whether it is public
         * @description ThingsBoard - `{title, isPublic}`; dhi has no public customers.
         */
        get: operations["getShortCustomerInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/title": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer's title as text
         * @description ThingsBoard - the bare title, content type application/text.
         */
        get: operations["getCustomerTitle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a customer's users
         * @description ThingsBoard - paged, searched by email or name, sortable.
         */
        get: operations["getCustomerUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the tenant's users
         * @description ThingsBoard - every user of the tenant, its customers' users included; searched by email,
         *     first or last name. With `userIds` instead (getUsersByIdsV1), the plain list of those users.
         */
        get: operations["getUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users by ids
         * @description ThingsBoard - the tenant's users among the ids (unknown ones are left out).
         */
        get: operations["getUsersByIds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the tenant's users as {id, email, firstName, lastName}
         * @description ThingsBoard (UserEmailInfo) - the users of the tenant, searched by email, first or last name.
         */
        get: operations["findUsersByQuery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/{tenantId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a tenant's administrators (system administrators only)
         * @description ThingsBoard - SYS_ADMIN only; dhi has no system administrator, so every caller is 403 as a tenant admin is in ThingsBoard.
         */
        get: operations["getTenantAdmins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/{userId}/userCredentialsEnabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable or disable a user's credentials
         * @description ThingsBoard - 200 with an empty body. A user whose credentials are disabled cannot log in or
         *     refresh a token (401 `User account is not active`), and the tokens issued before are refused;
         *     enabling them again allows logging in. dhi's users are enabled when created (ThingsBoard
         *     enables a user's credentials on activation, which dhi does not model).
         */
        post: operations["setUserCredentialsEnabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/tokenAccessEnabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether a tenant admin may get users' tokens
         * @description ThingsBoard security.user_token_access_enabled - always true in dhi.
         */
        get: operations["getUserTokenAccessEnabled"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user
         * @description ThingsBoard User.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user
         * @description ThingsBoard - 200 with an empty body; deleting one's own user is 400.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a device
         * @description ThingsBoard - without `id` a device is created (its name must be unique: 400 otherwise),
         *     with `id` the stored device is replaced by the body. `accessToken` sets the token of a new
         *     device; otherwise a random 20-character token is generated. `deviceProfileId` names the
         *     device's profile; without it `type` names it (the profile of that name, created when
         *     missing), else the device keeps its profile (a new one gets the default profile). The
         *     device's `type` is always its profile's name. Assigning `firmwareId` or `softwareId` sets
         *     the fw_*\/sw_* shared attributes at once.
         */
        post: operations["saveDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDevice"];
        put?: never;
        post?: never;
        /** @description Deletes the device and its data; its token then gives 401 and its open polls end. */
        delete: operations["deleteDevice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/{deviceId}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDeviceCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One device by name, or a page of devices
         * @description ThingsBoard - with `deviceName` the device of that name (404 when none); otherwise a page of devices (`pageSize` required).
         */
        get: operations["getTenantDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/info/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The device info
         * @description ThingsBoard DeviceInfo - the device with `customerTitle`, `customerIsPublic`, `deviceProfileName` and `active` (the device state's).
         */
        get: operations["getDeviceInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/deviceInfos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of device infos
         * @description ThingsBoard - paged, searched (name or label), sortable, filtered by `type` or `deviceProfileId`, and by `active`.
         */
        get: operations["getTenantDeviceInfos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The device of that name
         * @description ThingsBoard - 404 when no device has the name.
         */
        get: operations["getTenantDeviceByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The device types in use
         * @description ThingsBoard EntitySubtype list (deprecated there since 3.6.2, still served) - one entry per distinct type, sorted; dhi has no tenant id to add.
         */
        get: operations["getDeviceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a customer's devices
         * @description ThingsBoard - paged, searched, sortable, filtered by `type`; 404 for an unknown customer.
         */
        get: operations["getCustomerDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/deviceInfos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a customer's device infos
         * @description ThingsBoard - as the tenant device infos, for one customer.
         */
        get: operations["getCustomerDeviceInfos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/{customerId}/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign a device to a customer
         * @description ThingsBoard - answers the device with its new customer; 404 for an unknown customer or device.
         */
        post: operations["assignDeviceToCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take a device back from its customer
         * @description ThingsBoard - answers the unassigned device; 400 "Device isn't assigned to any customer!" when it has none.
         */
        delete: operations["unassignDeviceFromCustomer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device-with-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a device with its credentials
         * @description ThingsBoard - `device` as for POST /api/device, `credentials` as for POST /api/device/credentials (without deviceId); an existing device gets the new credentials (their version checked and advanced as for POST /api/device/credentials).
         */
        post: operations["saveDeviceWithCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a device's credentials
         * @description ThingsBoard - ACCESS_TOKEN takes `credentialsId` (the token); X509_CERTIFICATE takes the certificate in `credentialsValue` (the id is its SHA3-256 hex); MQTT_BASIC takes the JSON text of {clientId, userName, password} in `credentialsValue`. LWM2M_CREDENTIALS are 400 (dhi does not model LwM2M). A credentials id of another device is 400. Only an ACCESS_TOKEN device can use the HTTP device API. The body names the credentials by their own `id` (read them first, as ThingsBoard's clients do); a stale `version` is 409 `Entity was already changed by someone else`.
         */
        post: operations["updateDeviceCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Devices by ids
         * @description ThingsBoard - the devices among the comma-separated ids that exist.
         */
        get: operations["getDevicesByIds"];
        put?: never;
        /**
         * Find devices by a relation query
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["findDevicesByQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/devices/count/{otaPackageType}/{deviceProfileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Devices of a profile without a package of their own
         * @description ThingsBoard countByDeviceProfileAndEmptyOtaPackage - the devices of the profile with no package of that type assigned to them (those a package assigned to the profile reaches).
         */
        get: operations["countDevicesWithoutPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/public/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a device public
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["assignDeviceToPublicCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/{tenantId}/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a device to another tenant
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["assignDeviceToTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/edge/{edgeId}/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign a device to an edge
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["assignDeviceToEdge"];
        /**
         * Unassign a device from an edge
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        delete: operations["unassignDeviceFromEdge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/edge/{edgeId}/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The devices of an edge
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getEdgeDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/bulk_import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import devices from CSV
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["processDevicesBulkImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/sendActivationMail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a user activation e-mail
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["sendActivationMail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/{userId}/activationLink": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user activation link
         * @description ThingsBoard - `<base url>/api/noauth/activate?activateToken=<token>` as text, the base url being
         *     the request's scheme and Host. A user created through the API is not active until it follows
         *     the link (`POST /api/noauth/activate`); the token lives 24 h and is renewed when less than
         *     15 minutes are left. An active user is 400 `User is already activated!`.
         */
        get: operations["getActivationLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/{userId}/activationLinkInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user activation link with its lifetime
         * @description ThingsBoard's UserActivationLink - the link (as getActivationLink) and the ms it has left.
         */
        get: operations["getActivationLinkInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/assign/{alarmId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users an alarm can be assigned to
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getUsersForAssign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getUserSettings"];
        /**
         * Update the user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        put: operations["putUserSettings"];
        /**
         * Save the user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["saveUserSettings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings/general": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The general user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getGeneralUserSettings"];
        /**
         * Update the general user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        put: operations["putGeneralUserSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings/{paths}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete general user settings
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        delete: operations["deleteGeneralUserSettings"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * User settings of a type
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getUserSettingsByType"];
        /**
         * Update user settings of a type
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        put: operations["putUserSettingsByType"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/settings/{type}/{paths}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete user settings of a type
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        delete: operations["deleteUserSettingsByType"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's starred and last visited dashboards
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getUserDashboardsInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/lastVisitedDashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's last visited dashboards
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getLastVisitedDashboards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/dashboards/{dashboardId}/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Report a dashboard action (visit, star, unstar)
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["reportUserDashboardAction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/mobile/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mobile app session of the user
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        get: operations["getMobileSession"];
        put?: never;
        /**
         * Save the mobile app session of the user
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        post: operations["saveMobileSession"];
        /**
         * Remove the mobile app session of the user
         * @description ThingsBoard has it; dhi does not model what it is about and answers 501 naming it (see reference-server/README.md).
         */
        delete: operations["removeMobileSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/attributes/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set shared or server attributes
         * @description A shared change reaches the device's open attribute polls.
         */
        post: operations["saveDeviceAttributes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set shared or server attributes (v1 path) */
        post: operations["saveDeviceAttributesV1"];
        /**
         * Delete attributes
         * @description A shared delete reaches the device's open attribute polls as `deleted`.
         */
        delete: operations["deleteDeviceAttributes"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/values/attributes/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read attributes of one scope */
        get: operations["getDeviceAttributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/values/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read telemetry (latest values, or a range)
         * @description ThingsBoard (getLatestTimeseries) - without both `startTs` and `endTs`, the latest value of
         *     each key asked for, in the order asked; a key without a latest value answers
         *     `[{"ts": <now>, "value": null}]`. Without keys, the latest value of every key.
         *
         *     ThingsBoard (getTimeseries) - with both `startTs` and `endTs`, the same read as
         *     `values/timeseries/history` (see there): raw values or aggregated buckets; without keys, `{}`.
         *
         *     Values are strings as Java prints them (`"42.0"`, `"73"`, `"true"`) unless
         *     `useStrictDataTypes=true`.
         */
        get: operations["getDeviceTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/values/timeseries/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a range of telemetry, raw or aggregated
         * @description ThingsBoard (getTimeseriesHistory; DefaultTbTelemetryService, BaseTimeseriesService and the
         *     SQL store) - the values with `startTs <= ts < endTs`, key after key; without keys, `{}`.
         *
         *     Raw (`agg=NONE`, or `interval=0` with `intervalType` absent or MILLISECONDS): up to `limit`
         *     values per key, newest first (`orderBy=ASC`: oldest first).
         *
         *     Aggregated (`agg` MIN, MAX, AVG, SUM or COUNT): buckets from `startTs` to
         *     max(`startTs` + 1, `endTs`), each `interval` ms, or a calendar WEEK (Sunday to Saturday),
         *     WEEK_ISO (Monday to Sunday), MONTH or QUARTER in `timeZone`; the last bucket ends at the
         *     range's end. Each bucket with values is one point stamped with the bucket's middle,
         *     start + (end - start) / 2; empty buckets are left out; points are oldest first whatever
         *     `orderBy`, and `limit` does not apply. A bucket's value:
         *     - COUNT: a long, the number of booleans if it has any, else of strings, else of JSON
         *       values, else of numbers;
         *     - SUM: the long sum of longs, or a double when doubles are present (a bucket without numbers: 0);
         *     - AVG: a double, the sum of the numbers over their count (a bucket without numbers: 0.0);
         *     - MIN, MAX: a long over longs only, a double when doubles are present; over strings (as text)
         *       only when the bucket holds no number; booleans and JSON values alone give no point.
         *
         *     400 (with ThingsBoard's messages): an unknown `agg`, a blank key, an interval below 1 ms, more
         *     than 700 intervals (counting an interval as at least 1 s, a week as 7 days, a month as 30, a
         *     quarter as 90; `endTs` before `startTs` gives a negative count), a raw read with `limit` below
         *     1 or an `orderBy` other than ASC or DESC in any case. dhi: `limit` above 100000 is 400.
         */
        get: operations["getTimeseriesHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/keys/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Time-series keys of a device
         * @description ThingsBoard - the keys that have a latest value, sorted.
         */
        get: operations["getTimeseriesKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/keys/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attribute keys of a device, every scope
         * @description ThingsBoard - the keys of CLIENT_SCOPE, SERVER_SCOPE and SHARED_SCOPE in that order, each scope sorted; a key in two scopes is listed twice.
         */
        get: operations["getAttributeKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/keys/attributes/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attribute keys of one scope
         * @description ThingsBoard - sorted.
         */
        get: operations["getAttributeKeysByScope"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/values/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the attributes of every scope
         * @description ThingsBoard - CLIENT_SCOPE, SERVER_SCOPE, then SHARED_SCOPE entries; `keys` filters.
         */
        get: operations["getAllDeviceAttributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/timeseries/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save time series
         * @description ThingsBoard - the body is the device's telemetry body (a key-value object, `{ts, values}`, or
         *     an array of them), typed as the device API types it; 400 when it holds no value. The `scope`
         *     is ThingsBoard's `ANY` and is not used.
         */
        post: operations["saveDeviceTimeseries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/timeseries/{scope}/{ttl}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save time series with a TTL
         * @description ThingsBoard - the body is the device's telemetry body (a key-value object, `{ts, values}`, or
         *     an array of them), typed as the device API types it; 400 when it holds no value. The `scope`
         *     is ThingsBoard's `ANY` and is not used. The values expire `ttl` seconds after their
         *     timestamp and are then deleted by the server's cleanup (dhi serve runs one every 10 s, in
         *     small steps), as ThingsBoard's Cassandra store applies a TTL: 0 means the server's TTL
         *     (`dhi serve --ttl`, ThingsBoard's `ts_key_value_ttl`), and when the server has one the
         *     shorter of the two counts. Latest values stay. ThingsBoard's SQL store ignores this TTL.
         */
        post: operations["saveDeviceTimeseriesWithTtl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{entityType}/{entityId}/timeseries/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete time series
         * @description ThingsBoard - deletes the values of `keys` with startTs <= ts < endTs, or every value up to now
         *     with `deleteAllDataForKeys`. The latest value goes too when it is in the range (unless
         *     `deleteLatest=false`); `rewriteLatestIfDeleted` then makes the newest remaining value the latest.
         */
        delete: operations["deleteDeviceTimeseries"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/telemetry/{deviceId}/{scope}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set shared or server attributes (the form without an entity type) */
        post: operations["saveDeviceAttributesByDeviceId"];
        /** Delete attributes (the form without an entity type) */
        delete: operations["deleteDeviceAttributesByDeviceId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/rpc/oneway/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Server-side one-way RPC (v1)
         * @description ThingsBoard - 200 with an empty body (no content type) once a poll of the device took the
         *     command; 409 when none did within the timeout. A persistent command answers 200
         *     `{"rpcId": "<uuid>"}` (application/json) at once and ends DELIVERED once delivered; OpenAPI
         *     cannot declare that body next to the empty one under the same status, so only the empty
         *     body is declared. 404 for an unknown device is the bare text `Device with requested id
         *     wasn't found!` (AccessValidator).
         */
        post: operations["sendOneWayRpcV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/rpc/twoway/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Server-side two-way RPC (v1)
         * @description ThingsBoard - 200 with the device's reply (406 when it is not JSON). A command delivered but
         *     not answered in time is 408; one never delivered is 409. A persistent command answers
         *     `{rpcId}` at once. 404 for an unknown device is the bare text `Device with requested id
         *     wasn't found!` (AccessValidator).
         */
        post: operations["sendRpcV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rpc/oneway/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Server-side one-way RPC (v2)
         * @description As v1 one-way (persistent commands answer `{rpcId}`), but a command not delivered in time is 504.
         */
        post: operations["sendOneWayRpcV2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rpc/twoway/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Server-side two-way RPC (v2)
         * @description As v1 two-way, but every timeout (delivered or not) is 504.
         */
        post: operations["sendRpcV2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rpc/persistent/{rpcId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPersistentRpc"];
        put?: never;
        post?: never;
        delete: operations["deletePersistentRpc"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rpc/persistent/device/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPersistentRpcByDevice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an OTA package (metadata) */
        post: operations["saveOtaPackageInfo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackage/{otaPackageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getOtaPackage"];
        put?: never;
        /**
         * Upload the package file
         * @description The checksum is computed with `checksumAlgorithm` when absent, and verified when given (400 on
         *     mismatch, case-insensitive). Printed as ThingsBoard prints it: lower-case hex digests; CRC32 as
         *     Long.toHexString (no zero padding); MURMUR3_32/128 as Guava's HashCode.toString (little-endian
         *     bytes). The part's file name is kept with characters other than `A-Za-z0-9._-` replaced by `_`.
         *     A package's data cannot be replaced (400), nor uploaded to a package with a `url`.
         *     `checksumAlgorithm` and `checksum` may come as form fields instead of query parameters (a
         *     Spring @RequestParam reads both; the query wins).
         */
        post: operations["uploadOtaPackage"];
        /** @description Deleting a package that is assigned to a device or profile is 400. */
        delete: operations["deleteOtaPackage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackage/{otaPackageId}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["downloadOtaPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getOtaPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackage/info/{otaPackageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The package info (without data)
         * @description ThingsBoard OtaPackageInfo.
         */
        get: operations["getOtaPackageInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otaPackages/{deviceProfileId}/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a profile's assignable packages of one type
         * @description ThingsBoard - the packages of the profile and type that have data or a url; paged, searched by title, sortable.
         */
        get: operations["getOtaPackagesByProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or update a device profile (with provisioning configuration) */
        post: operations["saveDeviceProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile/{deviceProfileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDeviceProfile"];
        put?: never;
        post?: never;
        /** @description The default profile, or one still used by devices, cannot be deleted (400). */
        delete: operations["deleteDeviceProfile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDeviceProfiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfileInfo/{deviceProfileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The profile info
         * @description ThingsBoard DeviceProfileInfo (no image or dashboard in dhi - null).
         */
        get: operations["getDeviceProfileInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfileInfo/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The default profile info
         * @description ThingsBoard DeviceProfileInfo of the default profile.
         */
        get: operations["getDefaultDeviceProfileInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfileInfos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of profile infos
         * @description ThingsBoard - paged, searched by name, sortable, filtered by `transportType`; with `deviceProfileIds` instead, the plain list of those profiles (an unknown id is left out).
         */
        get: operations["getDeviceProfileInfos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfileInfos/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Profile infos by ids
         * @description ThingsBoard - the profiles among the ids that exist.
         */
        get: operations["getDeviceProfileInfosByIds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile/names": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Profile names
         * @description ThingsBoard - every profile as {id, name} by name; with `activeOnly`, only profiles that have devices.
         */
        get: operations["getDeviceProfileNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile/devices/keys/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Time-series keys of a profile's devices
         * @description ThingsBoard - the distinct keys with a latest value among the devices of the profile (of every device without `deviceProfileId`), sorted.
         */
        get: operations["getDeviceProfileTimeseriesKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile/devices/keys/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Attribute keys of a profile's devices
         * @description ThingsBoard - the distinct attribute keys (every scope) among the devices of the profile, sorted.
         */
        get: operations["getDeviceProfileAttributesKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deviceProfile/{deviceProfileId}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the profile the default
         * @description ThingsBoard - the previous default profile stops being the default.
         */
        post: operations["setDefaultDeviceProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customer/device/{deviceName}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A customer user claims a device by name
         * @description ThingsBoard - 200 `{device, response: "SUCCESS"}` within the window the device opened with
         *     its claim request and the right secret; 400 with the JSON string "FAILURE" when the window
         *     expired, the key is wrong or no claim is open (a failed attempt removes the open claim);
         *     400 "CLAIMED" when a customer already owns the device. Only a CUSTOMER_USER may claim (403
         *     otherwise).
         */
        post: operations["claimDevice"];
        /**
         * Release a claimed device
         * @description A tenant admin, or a user of the owning customer (403 otherwise), unassigns the device.
         */
        delete: operations["reclaimDevice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dhi/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List device-side RPC rules (dhi extension) */
        get: operations["listRules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dhi/rules/{method}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the reply of a device-side RPC method (dhi extension) */
        put: operations["setRule"];
        post?: never;
        delete: operations["deleteRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description ThingsBoard's error body. */
        Error: {
            /** @description The HTTP status code. */
            status: number;
            /** @description What was wrong. */
            message: string | null;
            /**
             * @description 2 general, 10 authentication, 20 permission denied, 31 bad request parameters, 32 item not found, 33 too many requests, 46 database (the store cannot take writes).
             * @enum {integer}
             */
            errorCode: 2 | 10 | 11 | 20 | 30 | 31 | 32 | 33 | 34 | 35 | 40 | 45 | 46;
            /** Format: int64 */
            timestamp: number;
        };
        /** @description A key-value value - string, boolean, long, double, or JSON (object or array, nested up to the body limit of 1000 levels). `null` is accepted and skipped. Numbers are typed from their text (see the document's description). */
        KeyValueValue: string | boolean | number | Record<string, unknown> | unknown[] | null;
        /** @description Any JSON document. */
        AnyJson: unknown;
        /** @description An object of key-value pairs; keys are strings. */
        KeyValues: {
            [key: string]: components["schemas"]["KeyValueValue"];
        };
        /** @description Form (c) - `ts` in Unix milliseconds and the values for it. */
        TimestampedValues: {
            /**
             * Format: int64
             * @description Unix milliseconds. dhi keeps it within ±(2^53-1), the integers a JavaScript number holds
             *     exactly (ThingsBoard takes any long, and a number out of range such as `1e300` as a
             *     truncated long); anything else is 400.
             */
            ts: number;
            values: components["schemas"]["KeyValues"];
        };
        /** @description An object carrying both `ts` and `values` is form (c); any other object is form (a). */
        TelemetryRecord: Record<string, unknown>;
        /** @description Form (a) or (c), or an array of them (form b). */
        TelemetryUpload: components["schemas"]["TelemetryRecord"] | components["schemas"]["TelemetryRecord"][];
        AttributesResponse: {
            client?: components["schemas"]["KeyValues"];
            shared?: components["schemas"]["KeyValues"];
        };
        /** @description The changed shared attributes, flat; `deleted` lists removed keys. */
        AttributeUpdate: {
            deleted?: string[];
        } & {
            [key: string]: components["schemas"]["KeyValueValue"];
        };
        RpcRequest: {
            /** @description The request id (ThingsBoard - a per-device integer). The specification allows it to be carried as a string (of digits) in the body. */
            id: number | string;
            method: string;
            params: components["schemas"]["AnyJson"];
        };
        ClientRpcRequest: {
            method: string;
            params: components["schemas"]["AnyJson"];
        };
        ClaimRequest: {
            /** @default  */
            secretKey?: string;
            /**
             * Format: int64
             * @description The claim window in ms; 0 or less means device.claim.duration (ThingsBoard).
             */
            durationMs?: number;
        };
        ProvisionRequest: {
            /** @description Name of the new device; ThingsBoard generates one under ALLOW_CREATE_NEW_DEVICES when absent. */
            deviceName?: string;
            provisionDeviceKey: string;
            provisionDeviceSecret: string;
            /**
             * @description The credentials of the new device (used when the body carries credential data).
             * @default ACCESS_TOKEN
             * @enum {string}
             */
            credentialsType?: "ACCESS_TOKEN" | "MQTT_BASIC" | "X509_CERTIFICATE";
            /** @description The access token to store (else generated). */
            token?: string;
            clientId?: string;
            username?: string;
            password?: string;
            /** @description X509_CERTIFICATE - the device certificate (PEM or its base64 body). */
            hash?: string;
            /** @description Sets additionalInfo.gateway on the new device. */
            gateway?: boolean;
        };
        ProvisionResponse: {
            /** @description The access token, the certificate, or (MQTT_BASIC) the object {clientId, userName, password}. */
            credentialsValue: string | Record<string, unknown>;
            credentialsType: components["schemas"]["CredentialsType"];
            /** @constant */
            status: "SUCCESS";
        } | {
            /** @constant */
            errorMsg: "Provision data was not found!";
            /** @constant */
            status: "NOT_FOUND";
        } | {
            /** @constant */
            errorMsg: "Failed to provision device!";
            /** @constant */
            status: "FAILURE";
        };
        EntityId: {
            entityType: string;
            /** Format: uuid */
            id: string;
        };
        /** @description A typed id in a request body, bound as ThingsBoard binds its ids (a Jackson creator from `id` alone). `entityType` may be left out and is not read; the property says the type. */
        EntityIdInput: {
            entityType?: string | null;
            /** Format: uuid */
            id: string;
        };
        /**
         * Format: int64
         * @description ThingsBoard's optimistic lock. 1 when created, one more at every save; a save that carries another number than the stored one is 409 (errorCode 35) `<Entity> was already changed by someone else`, a save without it overwrites.
         */
        Version: number | null;
        /** @description Any JSON kept as sent - an object, an array, a string, a number, a boolean or null (ThingsBoard's additionalInfo is a JsonNode). */
        AdditionalInfo: unknown;
        /** @description ThingsBoard's ApiKeyInfo as its REST API binds it (properties it does not have are ignored; `tenantId`, `createdTime` and `expired` are the server's). */
        ApiKeyInput: {
            id?: components["schemas"]["EntityIdInput"];
            userId: components["schemas"]["EntityIdInput"];
            description: string | null;
            /** @description false when absent (a Java boolean). */
            enabled?: boolean | null;
            /**
             * Format: int64
             * @description ms since the epoch; 0 or absent - never.
             */
            expirationTime?: number | null;
        };
        ApiKeyInfo: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            userId: components["schemas"]["EntityId"];
            expirationTime: number;
            description: string;
            enabled: boolean;
            expired: boolean;
        };
        ApiKey: components["schemas"]["ApiKeyInfo"] & {
            /** @description The key's value - only when it was created. */
            value: string | null;
        };
        ApiKeyInfoPage: {
            data: components["schemas"]["ApiKeyInfo"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        JwtPair: {
            token: string;
            refreshToken: string;
        };
        CustomerPage: {
            data: components["schemas"]["Customer"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        UserPage: {
            data: components["schemas"]["User"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        UserEmailInfoPage: {
            data: {
                id: components["schemas"]["EntityId"];
                email: string;
                firstName?: string | null;
                lastName?: string | null;
            }[];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        /** @description ThingsBoard's Customer as its REST API binds it. Properties it does not have are ignored; `tenantId`, `createdTime` and `name` are the server's and ignored too. */
        CustomerInput: {
            id?: components["schemas"]["EntityIdInput"];
            title: string;
            country?: string | null;
            state?: string | null;
            city?: string | null;
            address?: string | null;
            address2?: string | null;
            zip?: string | null;
            phone?: string | null;
            email?: string | null;
            additionalInfo?: components["schemas"]["AdditionalInfo"];
            externalId?: components["schemas"]["EntityIdInput"] | null;
            version?: components["schemas"]["Version"];
        };
        Customer: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            title: string;
            /** @description The title (ThingsBoard). */
            name: string;
            country: string | null;
            state: string | null;
            city: string | null;
            address: string | null;
            address2: string | null;
            zip: string | null;
            phone: string | null;
            email: string | null;
            additionalInfo: components["schemas"]["AdditionalInfo"];
            externalId: components["schemas"]["EntityId"] | null;
            version: components["schemas"]["Version"];
        };
        /** @description ThingsBoard's User as its REST API binds it. Properties it does not have are ignored; `tenantId`, `createdTime` and `name` are the server's and ignored too. */
        UserInput: {
            /** @description An existing user's id - the save updates it (404 when there is none). */
            id?: components["schemas"]["EntityIdInput"];
            email: string;
            /** @enum {string} */
            authority: "TENANT_ADMIN" | "CUSTOMER_USER";
            customerId?: components["schemas"]["EntityIdInput"] | null;
            firstName?: string | null;
            lastName?: string | null;
            phone?: string | null;
            additionalInfo?: components["schemas"]["AdditionalInfo"];
            version?: components["schemas"]["Version"];
        };
        User: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            email: string;
            /** @description The email (ThingsBoard). */
            name: string;
            authority: string;
            /** @description ThingsBoard - the null-uuid customer (13814000-1dd2-11b2-8080-808080808080) for a tenant admin. */
            customerId: components["schemas"]["EntityId"] | null;
            firstName: string | null;
            lastName: string | null;
            phone: string | null;
            additionalInfo: components["schemas"]["AdditionalInfo"];
            version: components["schemas"]["Version"];
        };
        /** @description ThingsBoard's Device as its REST API binds it. Properties it does not have are ignored; `tenantId` and `createdTime` are the server's and ignored too. */
        DeviceInput: {
            id?: components["schemas"]["EntityIdInput"];
            name: string;
            /** @default default */
            type?: string | null;
            label?: string | null;
            deviceProfileId?: components["schemas"]["EntityIdInput"] | null;
            firmwareId?: components["schemas"]["EntityIdInput"] | null;
            softwareId?: components["schemas"]["EntityIdInput"] | null;
            customerId?: components["schemas"]["EntityIdInput"] | null;
            deviceData?: components["schemas"]["DeviceData"] | null;
            additionalInfo?: components["schemas"]["AdditionalInfo"];
            externalId?: components["schemas"]["EntityIdInput"] | null;
            version?: components["schemas"]["Version"];
        };
        /** @description ThingsBoard's DeviceData, kept as sent; a device saved without it gets the DEFAULT configuration and its profile's transport type. */
        DeviceData: {
            configuration: {
                /** @constant */
                type: "DEFAULT";
            } & {
                [key: string]: unknown;
            };
            /** @description The transport's own settings (MQTT topics, ...) kept as sent. */
            transportConfiguration: {
                type: components["schemas"]["TransportType"];
            } & {
                [key: string]: unknown;
            };
        };
        /** @enum {string} */
        TransportType: "DEFAULT" | "MQTT" | "COAP" | "LWM2M" | "SNMP";
        Device: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            name: string;
            type: string;
            label: string | null;
            deviceProfileId: components["schemas"]["EntityId"];
            /** @description ThingsBoard - the null-uuid customer (13814000-1dd2-11b2-8080-808080808080) when the device is unassigned. */
            customerId: components["schemas"]["EntityId"];
            deviceData: components["schemas"]["DeviceData"];
            firmwareId: components["schemas"]["EntityId"] | null;
            softwareId: components["schemas"]["EntityId"] | null;
            externalId: components["schemas"]["EntityId"] | null;
            version: components["schemas"]["Version"];
            additionalInfo: components["schemas"]["AdditionalInfo"];
        };
        DeviceInfo: components["schemas"]["Device"] & {
            customerTitle?: string | null;
            /**
             * @description dhi has no public customers.
             * @constant
             */
            customerIsPublic: false;
            deviceProfileName?: string | null;
            /** @description Whether the device is active now (ThingsBoard's device state - a device request makes it active, its inactivity timeout inactive again; the `active` server attribute, or telemetry with --persist-state-to-telemetry). */
            active: boolean;
        };
        DeviceInfoPage: {
            data: components["schemas"]["DeviceInfo"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        EntitySubtype: {
            /** @constant */
            entityType: "DEVICE";
            type: string;
        };
        DeviceCredentialsInput: {
            /** @description The credentials' own id, as read from them (GET /api/device/{deviceId}/credentials). POST /api/device/credentials needs it (without it - 400 `Credentials for this device are already specified!`, an unknown one 400 `Unable to update non-existent device credentials!`, another device's 400 `Specified credentials are already registered!`); device-with-credentials ignores it. */
            id?: components["schemas"]["DeviceCredentialsId"] | null;
            deviceId?: components["schemas"]["EntityIdInput"];
            /** @enum {string} */
            credentialsType: "ACCESS_TOKEN" | "X509_CERTIFICATE" | "MQTT_BASIC" | "LWM2M_CREDENTIALS";
            credentialsId?: string | null;
            credentialsValue?: string | null;
            version?: components["schemas"]["Version"];
        };
        /** @description ThingsBoard's DeviceCredentialsId - a uuid, no entity type. */
        DeviceCredentialsId: {
            /** Format: uuid */
            id: string;
        };
        DevicePage: {
            data: components["schemas"]["Device"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        /**
         * @description ThingsBoard's DeviceCredentialsType (LWM2M_CREDENTIALS is not modelled by dhi). Only ACCESS_TOKEN devices can use the HTTP device API.
         * @enum {string}
         */
        CredentialsType: "ACCESS_TOKEN" | "X509_CERTIFICATE" | "MQTT_BASIC";
        DeviceCredentials: {
            id: components["schemas"]["DeviceCredentialsId"];
            createdTime: number;
            deviceId: components["schemas"]["EntityId"];
            credentialsType: components["schemas"]["CredentialsType"];
            /** @description The access token; for X509_CERTIFICATE the SHA3-256 hex of the certificate; for MQTT_BASIC the user name, or the SHA3-256 hex of the client id (and `|` user name). */
            credentialsId: string;
            /** @description null for ACCESS_TOKEN; the certificate; for MQTT_BASIC the JSON text of {clientId, userName, password}. */
            credentialsValue: string | null;
            /** @description The credentials' optimistic lock - 1 when created, one more at every save of them (a device save leaves them alone). */
            version: number;
        };
        AttributeEntry: {
            key: string;
            value: components["schemas"]["KeyValueValue"];
            lastUpdateTs: number;
        };
        /** @description ThingsBoard's UserPasswordPolicy (unset rules are null). */
        UserPasswordPolicy: {
            minimumLength?: number | null;
            maximumLength?: number | null;
            minimumUppercaseLetters?: number | null;
            minimumLowercaseLetters?: number | null;
            minimumDigits?: number | null;
            minimumSpecialCharacters?: number | null;
            allowWhitespaces?: boolean | null;
            forceUserToResetPasswordIfNotValid?: boolean | null;
            passwordExpirationPeriodDays?: number | null;
            passwordReuseFrequencyDays?: number | null;
        };
        TimeseriesResponse: {
            [key: string]: {
                ts: number;
                value: components["schemas"]["KeyValueValue"];
            }[];
        };
        ServerRpcRequest: {
            method: string;
            params: components["schemas"]["AnyJson"];
            /**
             * @description ms; the expiry is now + max(5000
             * @default 10000
             */
            timeout?: number;
            /**
             * Format: int64
             * @description Absolute expiry in ms; overrides timeout.
             */
            expirationTime?: number;
            /** @default false */
            persistent?: boolean;
            retries?: number;
            additionalInfo?: components["schemas"]["AnyJson"];
        };
        /** @enum {string} */
        RpcStatus: "QUEUED" | "SENT" | "DELIVERED" | "SUCCESSFUL" | "TIMEOUT" | "EXPIRED" | "FAILED" | "DELETED";
        Rpc: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            deviceId: components["schemas"]["EntityId"];
            expirationTime: number;
            request: {
                id?: string;
                oneway?: boolean;
                body?: {
                    method?: string;
                    /** @description The params as JSON text (ThingsBoard), each number as the caller sent it. */
                    params?: string;
                };
                persisted?: boolean;
                retries?: number;
            };
            /** @description The device's reply as it sent it (its bytes, so 1.0 stays 1.0); a reply that is not JSON as a string; null until answered. */
            response?: components["schemas"]["AnyJson"];
            status: components["schemas"]["RpcStatus"];
            /** @description As the caller sent it, numbers as sent. */
            additionalInfo?: components["schemas"]["AnyJson"];
        };
        RpcPage: {
            data: components["schemas"]["Rpc"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        /** @enum {string} */
        ChecksumAlgorithm: "MD5" | "SHA256" | "SHA384" | "SHA512" | "CRC32" | "MURMUR3_32" | "MURMUR3_128";
        /** @description ThingsBoard's SaveOtaPackageInfoRequest as its REST API binds it. Properties it does not have are ignored; `tenantId`, `createdTime`, `name`, `hasData` and the data's own fields (`fileName`, `contentType`, `checksumAlgorithm`, `checksum`, `dataSize`, set by the upload) are the server's and ignored too. */
        OtaPackageInput: {
            id?: components["schemas"]["EntityIdInput"];
            title: string;
            version: string;
            tag?: string | null;
            /** @enum {string} */
            type: "FIRMWARE" | "SOFTWARE";
            deviceProfileId?: components["schemas"]["EntityIdInput"] | null;
            url?: string | null;
            /** @description True - the package is a url (400 `Ota package URL should be specified!` without one). */
            usesUrl?: boolean | null;
            additionalInfo?: components["schemas"]["AdditionalInfo"];
            externalId?: components["schemas"]["EntityIdInput"] | null;
        };
        OtaPackageInfo: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            deviceProfileId: components["schemas"]["EntityId"] | null;
            /** @enum {string} */
            type: "FIRMWARE" | "SOFTWARE";
            title: string;
            version: string;
            tag: string | null;
            url: string | null;
            hasData: boolean;
            fileName: string | null;
            contentType: string | null;
            checksumAlgorithm: components["schemas"]["ChecksumAlgorithm"] | null;
            checksum: string | null;
            dataSize: number | null;
            externalId: components["schemas"]["EntityId"] | null;
            /** @description The title (ThingsBoard). */
            name: string;
            additionalInfo: components["schemas"]["AdditionalInfo"];
        };
        OtaPackagePage: {
            data: components["schemas"]["OtaPackageInfo"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        ProvisionConfiguration: {
            /** @enum {string} */
            type: "DISABLED" | "ALLOW_CREATE_NEW_DEVICES" | "CHECK_PRE_PROVISIONED_DEVICES";
            provisionDeviceSecret?: string | null;
        };
        /** @description ThingsBoard's DeviceProfile as its REST API binds it. Properties it does not have are ignored; `tenantId` and `createdTime` are the server's. Rule chains, dashboards and alarm rules are not modelled by dhi - a profile that names one is refused (400) naming the property. */
        DeviceProfileInput: {
            id?: components["schemas"]["EntityIdInput"];
            name: string;
            /**
             * @default DEFAULT
             * @enum {string|null}
             */
            type?: "DEFAULT" | null;
            transportType?: components["schemas"]["TransportType"] | null;
            description?: string | null;
            image?: string | null;
            default?: boolean | null;
            /** @enum {string|null} */
            provisionType?: "DISABLED" | "ALLOW_CREATE_NEW_DEVICES" | "CHECK_PRE_PROVISIONED_DEVICES" | null;
            provisionDeviceKey?: string | null;
            firmwareId?: components["schemas"]["EntityIdInput"] | null;
            softwareId?: components["schemas"]["EntityIdInput"] | null;
            defaultRuleChainId?: components["schemas"]["EntityIdInput"] | null;
            defaultEdgeRuleChainId?: components["schemas"]["EntityIdInput"] | null;
            defaultDashboardId?: components["schemas"]["EntityIdInput"] | null;
            defaultQueueName?: string | null;
            profileData?: components["schemas"]["DeviceProfileData"] | null;
            externalId?: components["schemas"]["EntityIdInput"] | null;
            version?: components["schemas"]["Version"];
        };
        /** @description ThingsBoard's DeviceProfileData. `configuration` and `transportConfiguration` are kept as sent (DEFAULT and the profile's transport type when absent); the provisioning configuration drives provisioning; `alarms` (alarm rules) must be empty or absent. */
        DeviceProfileData: {
            configuration?: ({
                /** @constant */
                type: "DEFAULT";
            } & {
                [key: string]: unknown;
            }) | null;
            transportConfiguration?: ({
                type: components["schemas"]["TransportType"];
            } & {
                [key: string]: unknown;
            }) | null;
            provisionConfiguration?: components["schemas"]["ProvisionConfiguration"] | null;
            /** @description Alarm rules - not modelled by dhi. */
            alarms?: unknown[] | null;
        };
        DeviceProfile: {
            id: components["schemas"]["EntityId"];
            createdTime: number;
            tenantId: components["schemas"]["EntityId"];
            name: string;
            description: string | null;
            image: string | null;
            /** @constant */
            type: "DEFAULT";
            transportType: components["schemas"]["TransportType"];
            /** @enum {string} */
            provisionType: "DISABLED" | "ALLOW_CREATE_NEW_DEVICES" | "CHECK_PRE_PROVISIONED_DEVICES";
            /** @description dhi has no rule chains. */
            defaultRuleChainId: null;
            /** @description dhi has no dashboards. */
            defaultDashboardId: null;
            defaultQueueName: string | null;
            provisionDeviceKey: string | null;
            firmwareId: components["schemas"]["EntityId"] | null;
            softwareId: components["schemas"]["EntityId"] | null;
            /** @description dhi has no edges. */
            defaultEdgeRuleChainId: null;
            externalId: components["schemas"]["EntityId"] | null;
            version: components["schemas"]["Version"];
            default: boolean;
            profileData: {
                configuration: {
                    /** @constant */
                    type: "DEFAULT";
                } & {
                    [key: string]: unknown;
                };
                transportConfiguration: {
                    type: components["schemas"]["TransportType"];
                } & {
                    [key: string]: unknown;
                };
                provisionConfiguration: components["schemas"]["ProvisionConfiguration"];
                alarms: null;
            };
        };
        DeviceProfileInfo: {
            id: components["schemas"]["EntityId"];
            tenantId: components["schemas"]["EntityId"];
            name: string;
            image: string | null;
            /** @description dhi has no dashboards. */
            defaultDashboardId: null;
            type: string;
            transportType: string;
        };
        DeviceProfileInfoPage: {
            data: components["schemas"]["DeviceProfileInfo"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        EntityInfo: {
            id: components["schemas"]["EntityId"];
            name: string;
        };
        DeviceProfilePage: {
            data: components["schemas"]["DeviceProfile"][];
            totalPages: number;
            totalElements: number;
            hasNext: boolean;
        };
        ClaimResult: {
            device: components["schemas"]["Device"];
            /** @constant */
            response: "SUCCESS";
        };
        RuleInput: {
            /** @constant */
            type: "static";
            reply: components["schemas"]["AnyJson"];
        } | {
            /** @constant */
            type: "echo";
        };
        Rule: {
            method: string;
            /** @enum {string} */
            type: "static" | "echo" | "builtin";
            reply?: components["schemas"]["AnyJson"];
        };
    };
    responses: {
        /** @description Accepted and durably stored (ThingsBoard - 200 with an empty body). */
        Stored: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Invalid URL, request parameters or body (specification), including a JSON body nested deeper than 1000 levels. `message` says what was wrong. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Invalid access token (specification). ThingsBoard sends an empty body; dhi sends the error body.
         *     As in ThingsBoard, which binds a request before it checks the token, a path or query value that
         *     does not bind (`rpc/abc`, `timeout=xyz`, a missing `title`) or a missing required body is 400
         *     even with an unknown token; a body that is not JSON is still 401 (ThingsBoard binds it as text).
         *     dhi decides from the URL and headers, so a chunked body that turns out empty is 401.
         */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid JWT, or bad credentials (errorCode 10); an expired JWT is errorCode 11 (ThingsBoard JWT_TOKEN_EXPIRED). */
        ControlUnauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The authenticated user may not do this (errorCode 20). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Resource not found (specification) - an unknown path, or an entity that does not exist (errorCode 32). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not with this method (ThingsBoard, errorCode 31). */
        MethodNotAllowed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The device's reply to a two-way RPC is not JSON (ThingsBoard). */
        NotAcceptable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than the limit for this path (Content-Length strictly above it; ThingsBoard). RPC paths 65536 bytes by default. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A path parameter longer than 256 characters (the longest an access token may be), refused by the router before the operation runs. */
        UriTooLong: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No update or command arrived within the timeout (ThingsBoard - 408 with an empty body; clients re-poll). */
        PollTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description No rule replied within the client RPC timeout (ThingsBoard - 503 from the async request timeout). */
        NoRuleReply: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The store cannot take writes for now (dhi): its disk, or its size limit, is full, the disk
         *     failed a write or a sync, or another process holds the database. Nothing of the request was
         *     stored; reads go on, and the same request succeeds once the cause is gone, without a restart
         *     of the server. errorCode 46 is ThingsBoard's DATABASE (which it answers 500).
         */
        StoreUnavailable: {
            headers: {
                /** @description Seconds to wait before sending the write again. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The device's reply document; for a persistent command `{rpcId}` at once. */
        RpcResult: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        /** @description The save carried a `version` other than the stored one (ThingsBoard's optimistic lock, errorCode 35). */
        VersionConflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description ThingsBoard has this endpoint; it is about something dhi does not model, which `message` names (errorCode 2). */
        NotModelled: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A poll of the device took the command (ThingsBoard - 200 with an empty body). */
        RpcDelivered: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description The device was deleted while the request waited (ThingsBoard's HttpSessionListener.onDeviceDeleted -
         *     403 with this bare text, not the error JSON; ThingsBoard labels it application/json, the
         *     mapping's `produces`, which the text is not). Later requests with its token are 401.
         */
        DeviceDeleted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": "Device was deleted!";
            };
        };
        /** @description The device does not exist (ThingsBoard AccessValidator - 404 with this bare text, not the error JSON). */
        DeviceNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": "Device with requested id wasn't found!";
            };
        };
        /** @description The entity does not exist (ThingsBoard AccessValidator - 404 with its bare text, not the error JSON). */
        EntityNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": "Device with requested id wasn't found!" | "Customer with requested id wasn't found!" | "User with requested id wasn't found!" | "Device profile with requested id wasn't found!" | "OtaPackage with requested id wasn't found!" | "Rpc with requested id wasn't found!" | "Tenant with requested id wasn't found!" | "Asset with requested id wasn't found!" | "Asset profile with requested id wasn't found!" | "Rule chain with requested id wasn't found!" | "Entity-view with requested id wasn't found!" | "Edge with requested id wasn't found!" | "Api Usage State with requested id wasn't found!" | "Resource with requested id wasn't found!";
            };
        };
        /**
         * @description The entity is not a device: one that exists but has no telemetry or attributes in dhi
         *     (a customer, user, device profile, OTA package or RPC), or a type ThingsBoard's
         *     AccessValidator does not implement (`Not Implemented!`; ThingsBoard answers 500). errorCode 2.
         */
        TelemetryNotModelled: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The command was delivered but not answered within its timeout (v1). */
        RpcTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No poll of the device took the command within its timeout (v1). */
        RpcNotDelivered: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The command was not answered (or not delivered) within its timeout (v2). */
        RpcGatewayTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The package bytes, whole or one chunk. */
        PackageBytes: {
            headers: {
                /** @description attachment;filename=<fileName> */
                "Content-Disposition"?: string;
                /** @description The package's file name. */
                "x-filename"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/octet-stream": string;
            };
        };
    };
    parameters: {
        /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
        AccessToken: string;
        /**
         * @description Long-poll timeout in milliseconds (20 seconds is 20000), a Java long bound as Spring binds it in
         *     ThingsBoard: whitespace removed, decimal with an optional sign or hex (`0x1F4`, `#1F4`); anything
         *     else (`1e308`, `1.5`, `abc`, beyond the 64-bit range) is 400, even with an unknown token. 0,
         *     empty or absent means the server default (60000); values above the server maximum (300000) are
         *     clamped (dhi); a negative value ends the poll at once with 408, as ThingsBoard schedules the
         *     poll's end with that delay.
         */
        PollTimeout: number;
        /** @description The title of the assigned package (case-sensitive). */
        PackageTitle: string;
        /** @description The version of the assigned package (case-sensitive). */
        PackageVersion: string;
        /** @description Chunk size in bytes; 0 returns the whole package. */
        ChunkSize: number;
        /** @description Zero-based chunk index; a chunk past the end is 200 with an empty body. */
        ChunkIndex: number;
        DeviceId: string;
        /**
         * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
         *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
         *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
         *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
         *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
         *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
         *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
         *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
         *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
         */
        EntityType: string;
        /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
        EntityId: string;
        /** @description A device id, read as Java's UUID.fromString reads it; otherwise 400 with its message. */
        TelemetryDeviceId: string;
        CustomerId: string;
        DeviceProfileId: string;
        OtaPackageId: string;
        RpcId: string;
        DeviceName: string;
        RuleMethod: string;
        WritableScope: "SHARED_SCOPE" | "SERVER_SCOPE";
        AnyScope: "CLIENT_SCOPE" | "SHARED_SCOPE" | "SERVER_SCOPE";
        /**
         * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
         *     read without keys reads every key (a range read - none); a delete without keys is 400
         *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
         */
        TsKeys: string;
        /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
        TsKey: string[];
        /** @description The aggregation interval in ms (MILLISECONDS); 0 reads raw values. */
        TsInterval: number;
        /** @description MILLISECONDS (`interval`) when absent; WEEK, WEEK_ISO, MONTH and QUARTER are calendar buckets in `timeZone`. */
        TsIntervalType: "MILLISECONDS" | "WEEK" | "WEEK_ISO" | "MONTH" | "QUARTER";
        /**
         * @description The zone of calendar buckets, as Java's ZoneId.of reads it (`Europe/Kyiv`, `+02:00`,
         *     `UTC+2`, `Z`; ThingsBoard's aliases EST, MST, HST, ROC, GMT+0, GMT-0); absent or unknown:
         *     the server's own zone.
         */
        TsTimeZone: string;
        /** @description Values per key of a raw read (at least 1; dhi - at most 100000). Not used when aggregating. */
        TsLimit: number;
        /** @description NONE, MIN, MAX, AVG, SUM or COUNT (exactly; anything else is 400 naming it). */
        TsAgg: string;
        /** @description ASC or DESC in any case (raw reads only; aggregated points are always oldest first). */
        TsOrderBy: string;
        /** @description Values as their JSON types instead of strings. */
        UseStrictDataTypes: boolean;
        /** @description Comma-separated user ids (each a UUID, else 400); unknown ones are left out. */
        UserIds: string;
        /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
        PageSize: number;
        /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
        Page: number;
        /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
        TextSearch: string;
        DeviceSortProperty: "createdTime" | "name" | "label" | "type" | "deviceProfileName" | "customerTitle";
        ProfileSortProperty: "createdTime" | "name" | "type" | "transportType" | "description" | "isDefault";
        OtaSortProperty: "createdTime" | "type" | "title" | "version" | "tag" | "url" | "fileName" | "contentType" | "checksumAlgorithm" | "checksum" | "dataSize";
        RpcSortProperty: "createdTime" | "expirationTime" | "status";
        UserSortProperty: "createdTime" | "email" | "firstName" | "lastName";
        ApiKeySortProperty: "createdTime" | "expirationTime" | "description" | "enabled";
        ApiKeyId: string;
        CustomerSortProperty: "createdTime" | "title" | "email";
        SortOrder: "ASC" | "DESC";
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    postTelemetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TelemetryUpload"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getAttributes: {
        parameters: {
            query?: {
                /** @description Client-side keys, comma-separated (`a,b`, not trimmed) or repeated (`clientKeys=a&clientKeys=b`). */
                clientKeys?: string[];
                /** @description Shared keys, comma-separated (`a,b`, not trimmed) or repeated (`sharedKeys=a&sharedKeys=b`). */
                sharedKeys?: string[];
            };
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The found attributes, grouped by kind; empty groups are omitted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttributesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
        };
    };
    postAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyValues"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    subscribeAttributes: {
        parameters: {
            query?: {
                /**
                 * @description Long-poll timeout in milliseconds (20 seconds is 20000), a Java long bound as Spring binds it in
                 *     ThingsBoard: whitespace removed, decimal with an optional sign or hex (`0x1F4`, `#1F4`); anything
                 *     else (`1e308`, `1.5`, `abc`, beyond the 64-bit range) is 400, even with an unknown token. 0,
                 *     empty or absent means the server default (60000); values above the server maximum (300000) are
                 *     clamped (dhi); a negative value ends the poll at once with 408, as ThingsBoard schedules the
                 *     poll's end with that delay.
                 */
                timeout?: components["parameters"]["PollTimeout"];
            };
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changed shared attributes, flat, with `deleted` when keys were removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttributeUpdate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DeviceDeleted"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["PollTimeout"];
            414: components["responses"]["UriTooLong"];
        };
    };
    subscribeRpc: {
        parameters: {
            query?: {
                /**
                 * @description Long-poll timeout in milliseconds (20 seconds is 20000), a Java long bound as Spring binds it in
                 *     ThingsBoard: whitespace removed, decimal with an optional sign or hex (`0x1F4`, `#1F4`); anything
                 *     else (`1e308`, `1.5`, `abc`, beyond the 64-bit range) is 400, even with an unknown token. 0,
                 *     empty or absent means the server default (60000); values above the server maximum (300000) are
                 *     clamped (dhi); a negative value ends the poll at once with 408, as ThingsBoard schedules the
                 *     poll's end with that delay.
                 */
                timeout?: components["parameters"]["PollTimeout"];
            };
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An RPC command for the device. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RpcRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DeviceDeleted"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["PollTimeout"];
            414: components["responses"]["UriTooLong"];
        };
    };
    postClientRpc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientRpcRequest"];
            };
        };
        responses: {
            /** @description The JSON document produced by the rule that handled the request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnyJson"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["DeviceDeleted"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["NoRuleReply"];
        };
    };
    postRpcReply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
                /** @description The integer id of the RPC request. */
                requestId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    postClaim: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ClaimRequest"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    postProvision: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvisionRequest"];
            };
        };
        responses: {
            /** @description The outcome of provisioning. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getFirmware: {
        parameters: {
            query: {
                /** @description The title of the assigned package (case-sensitive). */
                title: components["parameters"]["PackageTitle"];
                /** @description The version of the assigned package (case-sensitive). */
                version: components["parameters"]["PackageVersion"];
                /** @description Chunk size in bytes; 0 returns the whole package. */
                size?: components["parameters"]["ChunkSize"];
                /** @description Zero-based chunk index; a chunk past the end is 200 with an empty body. */
                chunk?: components["parameters"]["ChunkIndex"];
            };
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["PackageBytes"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
        };
    };
    getSoftware: {
        parameters: {
            query: {
                /** @description The title of the assigned package (case-sensitive). */
                title: components["parameters"]["PackageTitle"];
                /** @description The version of the assigned package (case-sensitive). */
                version: components["parameters"]["PackageVersion"];
                /** @description Chunk size in bytes; 0 returns the whole package. */
                size?: components["parameters"]["ChunkSize"];
                /** @description Zero-based chunk index; a chunk past the end is 200 with an empty body. */
                chunk?: components["parameters"]["ChunkIndex"];
            };
            header?: never;
            path: {
                /** @description The device access token. An unknown token is 401; a path parameter longer than 256 characters is 414 with the error body. */
                accessToken: components["parameters"]["AccessToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["PackageBytes"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The JWT pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwtPair"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
        };
    };
    saveCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerInput"];
            };
        };
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    deleteCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveUser: {
        parameters: {
            query?: {
                sendActivationMail?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserInput"];
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getSystemVersionInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version and edition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: string;
                        artifact: string;
                        name: string;
                        /** @constant */
                        type: "CE";
                    };
                };
            };
            401: components["responses"]["ControlUnauthorized"];
        };
    };
    getDevicePublishTelemetryCommands: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The commands by transport. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        http?: {
                            http?: string;
                            https?: string;
                        };
                    } & {
                        [key: string]: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    saveApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyInput"];
            };
        };
        responses: {
            /** @description The key, with its value when it was created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getUserApiKeys: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["ApiKeySortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the user's keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyInfoPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    updateApiKeyDescription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["ApiKeyId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "text/plain": string;
            };
        };
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    enableApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["ApiKeyId"];
                enabledValue: boolean;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["ApiKeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getUserToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's JWT pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwtPair"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description A new JWT pair for a refresh token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwtPair"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user of the JWT. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Log out. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description A new JWT pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwtPair"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getUserPasswordPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPasswordPolicy"];
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    checkActivateToken: {
        parameters: {
            query: {
                activateToken: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the web UI's page for the token. */
            303: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description No user has this activation token. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    activateUser: {
        parameters: {
            query?: {
                sendActivationMail?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    activateToken: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description The new user's JWT pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwtPair"];
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    requestResetPasswordByEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            501: components["responses"]["NotModelled"];
        };
    };
    checkResetToken: {
        parameters: {
            query: {
                resetToken: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            501: components["responses"]["NotModelled"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            501: components["responses"]["NotModelled"];
        };
    };
    getCustomers: {
        parameters: {
            query?: {
                /** @description Required unless customerIds is given. */
                pageSize?: number;
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["CustomerSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                customerIds?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of customers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerPage"] | components["schemas"]["Customer"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getCustomersByIds: {
        parameters: {
            query: {
                /** @description Comma-separated customer ids; unknown ones are left out. */
                customerIds: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Customers by ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getTenantCustomer: {
        parameters: {
            query: {
                customerTitle: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer of that title. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getShortCustomerInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer's title and whether it is public. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        title: string;
                        /** @constant */
                        isPublic: false;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getCustomerTitle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer's title as text. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/text": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getCustomerUsers: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["UserSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a customer's users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getUsers: {
        parameters: {
            query?: {
                /** @description Required unless userIds is given. */
                pageSize?: number;
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["UserSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                /** @description Comma-separated user ids (each a UUID, else 400); unknown ones are left out. */
                userIds?: components["parameters"]["UserIds"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the tenant's users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"] | components["schemas"]["User"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getUsersByIds: {
        parameters: {
            query: {
                /** @description Comma-separated user ids (each a UUID, else 400). */
                userIds: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    findUsersByQuery: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["UserSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of user e-mail infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserEmailInfoPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getTenantAdmins: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["UserSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path: {
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    setUserCredentialsEnabled: {
        parameters: {
            query?: {
                userCredentialsEnabled?: boolean;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getUserTokenAccessEnabled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a tenant admin may get users' tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": boolean;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delete a user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveDevice: {
        parameters: {
            query?: {
                /** @description The token of a new device; absent or empty - a random 20-character token is generated. */
                accessToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceInput"];
            };
        };
        responses: {
            /** @description The device. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    deleteDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDeviceCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device's access-token credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceCredentials"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getTenantDevices: {
        parameters: {
            query?: {
                deviceName?: string;
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["DeviceSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                /** @description Only devices of this type (profile name). */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device, or a page of devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"] | components["schemas"]["DevicePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getDeviceInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getTenantDeviceInfos: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["DeviceSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                /** @description Only devices of this type (profile name); wins over deviceProfileId. */
                type?: string;
                deviceProfileId?: string;
                /** @description Only the active devices (true) or the inactive ones (false), by the device state; with `type` or `deviceProfileId` too. */
                active?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of device infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceInfoPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getTenantDeviceByName: {
        parameters: {
            query: {
                deviceName: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device of that name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getDeviceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device types in use. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntitySubtype"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getCustomerDevices: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["DeviceSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                /** @description Only devices of this type (profile name); wins over deviceProfileId. */
                type?: string;
            };
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a customer's devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevicePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getCustomerDeviceInfos: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["DeviceSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                /** @description Only devices of this type (profile name); wins over deviceProfileId. */
                type?: string;
                deviceProfileId?: string;
                /** @description Only the active devices (true) or the inactive ones (false), by the device state; with `type` or `deviceProfileId` too. */
                active?: boolean;
            };
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of a customer's device infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceInfoPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    assignDeviceToCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customerId: components["parameters"]["CustomerId"];
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Assign a device to a customer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    unassignDeviceFromCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Take a device back from its customer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveDeviceWithCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    device: components["schemas"]["DeviceInput"];
                    credentials: components["schemas"]["DeviceCredentialsInput"];
                };
            };
        };
        responses: {
            /** @description Create or update a device with its credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updateDeviceCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceCredentialsInput"] & unknown;
            };
        };
        responses: {
            /** @description Replace a device's credentials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceCredentials"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDevicesByIds: {
        parameters: {
            query: {
                deviceIds: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The devices found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    findDevicesByQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    countDevicesWithoutPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                otaPackageType: "FIRMWARE" | "SOFTWARE";
                deviceProfileId: components["parameters"]["DeviceProfileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The count. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": number;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    assignDeviceToPublicCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    assignDeviceToTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenantId: string;
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    assignDeviceToEdge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                edgeId: string;
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    unassignDeviceFromEdge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                edgeId: string;
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getEdgeDevices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                edgeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    processDevicesBulkImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    sendActivationMail: {
        parameters: {
            query?: {
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getActivationLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getActivationLinkInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link and its lifetime. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        value: string;
                        ttlMs: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getUsersForAssign: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["UserSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path: {
                alarmId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    putUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    saveUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getGeneralUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    putGeneralUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    deleteGeneralUserSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                paths: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getUserSettingsByType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    putUserSettingsByType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    deleteUserSettingsByType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
                paths: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getUserDashboardsInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getLastVisitedDashboards: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    reportUserDashboardAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardId: string;
                action: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    getMobileSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    saveMobileSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnyJson"];
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    removeMobileSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            501: components["responses"]["NotModelled"];
        };
    };
    saveDeviceAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: components["parameters"]["WritableScope"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyValues"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveDeviceAttributesV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: components["parameters"]["WritableScope"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyValues"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteDeviceAttributes: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: components["parameters"]["AnyScope"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDeviceAttributes: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: components["parameters"]["AnyScope"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attributes found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttributeEntry"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getDeviceTimeseries: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
                startTs?: number;
                endTs?: number;
                /** @description The aggregation interval in ms (MILLISECONDS); 0 reads raw values. */
                interval?: components["parameters"]["TsInterval"];
                /** @description MILLISECONDS (`interval`) when absent; WEEK, WEEK_ISO, MONTH and QUARTER are calendar buckets in `timeZone`. */
                intervalType?: components["parameters"]["TsIntervalType"];
                /**
                 * @description The zone of calendar buckets, as Java's ZoneId.of reads it (`Europe/Kyiv`, `+02:00`,
                 *     `UTC+2`, `Z`; ThingsBoard's aliases EST, MST, HST, ROC, GMT+0, GMT-0); absent or unknown:
                 *     the server's own zone.
                 */
                timeZone?: components["parameters"]["TsTimeZone"];
                /** @description Values per key of a raw read (at least 1; dhi - at most 100000). Not used when aggregating. */
                limit?: components["parameters"]["TsLimit"];
                /** @description NONE, MIN, MAX, AVG, SUM or COUNT (exactly; anything else is 400 naming it). */
                agg?: components["parameters"]["TsAgg"];
                /** @description ASC or DESC in any case (raw reads only; aggregated points are always oldest first). */
                orderBy?: components["parameters"]["TsOrderBy"];
                /** @description Values as their JSON types instead of strings. */
                useStrictDataTypes?: components["parameters"]["UseStrictDataTypes"];
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Values per key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeseriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getTimeseriesHistory: {
        parameters: {
            query: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
                /** @description The range's start in ms, inclusive. */
                startTs: number;
                /** @description The range's end in ms, exclusive. */
                endTs: number;
                /** @description The aggregation interval in ms (MILLISECONDS); 0 reads raw values. */
                interval?: components["parameters"]["TsInterval"];
                /** @description MILLISECONDS (`interval`) when absent; WEEK, WEEK_ISO, MONTH and QUARTER are calendar buckets in `timeZone`. */
                intervalType?: components["parameters"]["TsIntervalType"];
                /**
                 * @description The zone of calendar buckets, as Java's ZoneId.of reads it (`Europe/Kyiv`, `+02:00`,
                 *     `UTC+2`, `Z`; ThingsBoard's aliases EST, MST, HST, ROC, GMT+0, GMT-0); absent or unknown:
                 *     the server's own zone.
                 */
                timeZone?: components["parameters"]["TsTimeZone"];
                /** @description Values per key of a raw read (at least 1; dhi - at most 100000). Not used when aggregating. */
                limit?: components["parameters"]["TsLimit"];
                /** @description NONE, MIN, MAX, AVG, SUM or COUNT (exactly; anything else is 400 naming it). */
                agg?: components["parameters"]["TsAgg"];
                /** @description ASC or DESC in any case (raw reads only; aggregated points are always oldest first). */
                orderBy?: components["parameters"]["TsOrderBy"];
                /** @description Values as their JSON types instead of strings. */
                useStrictDataTypes?: components["parameters"]["UseStrictDataTypes"];
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points per key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeseriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getTimeseriesKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getAttributeKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getAttributeKeysByScope: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: components["parameters"]["AnyScope"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    getAllDeviceAttributes: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attributes found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttributeEntry"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
        };
    };
    saveDeviceTimeseries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TelemetryUpload"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveDeviceTimeseriesWithTtl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
                scope: string;
                /** @description Time to live in seconds from each value's timestamp; 0 is the server's. */
                ttl: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TelemetryUpload"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteDeviceTimeseries: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
                deleteAllDataForKeys?: boolean;
                /** @description Required unless deleteAllDataForKeys. */
                startTs?: number;
                /** @description Required unless deleteAllDataForKeys (exclusive). */
                endTs?: number;
                deleteLatest?: boolean;
                rewriteLatestIfDeleted?: boolean;
            };
            header?: never;
            path: {
                /**
                 * @description One of ThingsBoard's EntityType names (case-sensitive); anything else is 400
                 *     `No enum constant org.thingsboard.server.common.data.EntityType.<name>`. Only DEVICE entities
                 *     have telemetry and attributes in dhi. For a tenant admin, as ThingsBoard's AccessValidator
                 *     answers: ASSET, ASSET_PROFILE, RULE_CHAIN, ENTITY_VIEW, EDGE, TB_RESOURCE, API_USAGE_STATE and
                 *     TENANT are 404 with its text (dhi has none of them; its one tenant has no id);
                 *     TENANT_PROFILE is 403 (system administrators only); API_USAGE_STATE is 403 for anything but
                 *     reading time series; CUSTOMER, USER, DEVICE_PROFILE, OTA_PACKAGE and RPC are 404 with its
                 *     text when the id names none, 501 (dhi keeps no telemetry or attributes for them) when it
                 *     does; the other types (DASHBOARD, ALARM, ...) are 501 `Not Implemented!` (ThingsBoard: 500).
                 */
                entityType: components["parameters"]["EntityType"];
                /** @description A UUID as Java's UUID.fromString reads it; otherwise 400 with its message (`Invalid UUID string: x`). */
                entityId: components["parameters"]["EntityId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EntityNotFound"];
            501: components["responses"]["TelemetryNotModelled"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    saveDeviceAttributesByDeviceId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A device id, read as Java's UUID.fromString reads it; otherwise 400 with its message. */
                deviceId: components["parameters"]["TelemetryDeviceId"];
                scope: components["parameters"]["WritableScope"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyValues"];
            };
        };
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteDeviceAttributesByDeviceId: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated keys, each kept as sent (Java's String.split; trailing empty ones dropped). A
                 *     read without keys reads every key (a range read - none); a delete without keys is 400
                 *     `Empty keys: []`; a blank key in a read is 400 (`Incorrect key `, `Incorrect attribute key `).
                 */
                keys?: components["parameters"]["TsKeys"];
                /** @description A key, repeatable; when present, `keys` is ignored (a key may then hold a comma). */
                key?: components["parameters"]["TsKey"];
            };
            header?: never;
            path: {
                /** @description A device id, read as Java's UUID.fromString reads it; otherwise 400 with its message. */
                deviceId: components["parameters"]["TelemetryDeviceId"];
                scope: components["parameters"]["AnyScope"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    sendOneWayRpcV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServerRpcRequest"];
            };
        };
        responses: {
            200: components["responses"]["RpcDelivered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            409: components["responses"]["RpcNotDelivered"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    sendRpcV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServerRpcRequest"];
            };
        };
        responses: {
            200: components["responses"]["RpcResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            406: components["responses"]["NotAcceptable"];
            408: components["responses"]["RpcTimeout"];
            409: components["responses"]["RpcNotDelivered"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    sendOneWayRpcV2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServerRpcRequest"];
            };
        };
        responses: {
            200: components["responses"]["RpcDelivered"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            503: components["responses"]["StoreUnavailable"];
            504: components["responses"]["RpcGatewayTimeout"];
        };
    };
    sendRpcV2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServerRpcRequest"];
            };
        };
        responses: {
            200: components["responses"]["RpcResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
            406: components["responses"]["NotAcceptable"];
            503: components["responses"]["StoreUnavailable"];
            504: components["responses"]["RpcGatewayTimeout"];
        };
    };
    getPersistentRpc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                rpcId: components["parameters"]["RpcId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The persistent RPC with its status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rpc"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    deletePersistentRpc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                rpcId: components["parameters"]["RpcId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getPersistentRpcByDevice: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["RpcSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                rpcStatus?: components["schemas"]["RpcStatus"];
            };
            header?: never;
            path: {
                deviceId: components["parameters"]["DeviceId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of persistent RPCs, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RpcPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["DeviceNotFound"];
        };
    };
    saveOtaPackageInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OtaPackageInput"];
            };
        };
        responses: {
            /** @description The package info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackageInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getOtaPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                otaPackageId: components["parameters"]["OtaPackageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackageInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    uploadOtaPackage: {
        parameters: {
            query: {
                /** @description Required, in the query or as a form field. */
                checksumAlgorithm: components["schemas"]["ChecksumAlgorithm"];
                checksum?: string;
            };
            header?: never;
            path: {
                otaPackageId: components["parameters"]["OtaPackageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    checksumAlgorithm?: components["schemas"]["ChecksumAlgorithm"];
                    checksum?: string;
                };
            };
        };
        responses: {
            /** @description The package info with data. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackageInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteOtaPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                otaPackageId: components["parameters"]["OtaPackageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    downloadOtaPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                otaPackageId: components["parameters"]["OtaPackageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["PackageBytes"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getOtaPackages: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["OtaSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of package infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackagePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getOtaPackageInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                otaPackageId: components["parameters"]["OtaPackageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackageInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getOtaPackagesByProfile: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["OtaSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path: {
                deviceProfileId: components["parameters"]["DeviceProfileId"];
                type: "FIRMWARE" | "SOFTWARE";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of package infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtaPackagePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    saveDeviceProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceProfileInput"];
            };
        };
        responses: {
            /** @description The device profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["VersionConflict"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDeviceProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceProfileId: components["parameters"]["DeviceProfileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    deleteDeviceProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceProfileId: components["parameters"]["DeviceProfileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getDeviceProfiles: {
        parameters: {
            query?: {
                /** @description Required by every list (ThingsBoard); 400 when absent. No upper bound but Java's int (a page reads only its own rows). */
                pageSize?: components["parameters"]["PageSize"];
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["ProfileSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of device profiles. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfilePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getDeviceProfileInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceProfileId: components["parameters"]["DeviceProfileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfileInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getDefaultDeviceProfileInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The default profile info. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfileInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getDeviceProfileInfos: {
        parameters: {
            query?: {
                /** @description Required unless deviceProfileIds is given. */
                pageSize?: number;
                /** @description Zero-based page number, a 32-bit integer as in ThingsBoard; anything else (1e308, 1.5, -1) is 400. A page past the end is an empty page. */
                page?: components["parameters"]["Page"];
                /** @description A case-insensitive substring of the list's text (ThingsBoard - devices - name or label; other lists - name or title). */
                textSearch?: components["parameters"]["TextSearch"];
                sortProperty?: components["parameters"]["ProfileSortProperty"];
                sortOrder?: components["parameters"]["SortOrder"];
                transportType?: string;
                /** @description Comma-separated profile ids (the list form). */
                deviceProfileIds?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of profile infos. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfileInfoPage"] | components["schemas"]["DeviceProfileInfo"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getDeviceProfileInfosByIds: {
        parameters: {
            query: {
                /** @description Comma-separated profile ids; unknown ones are left out. */
                deviceProfileIds: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profile infos by ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfileInfo"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getDeviceProfileNames: {
        parameters: {
            query?: {
                activeOnly?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Profile names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntityInfo"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getDeviceProfileTimeseriesKeys: {
        parameters: {
            query?: {
                /** @description The profile; every device of the tenant when absent. */
                deviceProfileId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Time-series keys of a profile's devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    getDeviceProfileAttributesKeys: {
        parameters: {
            query?: {
                /** @description The profile; every device of the tenant when absent. */
                deviceProfileId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Attribute keys of a profile's devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    setDefaultDeviceProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceProfileId: components["parameters"]["DeviceProfileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Make the profile the default. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceProfile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    claimDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceName: components["parameters"]["DeviceName"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description null or absent is no secret (ThingsBoard). */
                    secretKey?: string | null;
                };
            };
        };
        responses: {
            /** @description The device was claimed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClaimResult"];
                };
            };
            /** @description "FAILURE" or "CLAIMED" (a JSON string), or the error body for invalid input. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ("FAILURE" | "CLAIMED") | components["schemas"]["Error"];
                };
            };
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    reclaimDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deviceName: components["parameters"]["DeviceName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    listRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules, by method. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"][];
                };
            };
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    setRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                method: components["parameters"]["RuleMethod"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleInput"];
            };
        };
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deleteRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                method: components["parameters"]["RuleMethod"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Stored"];
            401: components["responses"]["ControlUnauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
}
