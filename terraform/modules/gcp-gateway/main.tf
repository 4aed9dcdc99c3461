# Geçit on Google Cloud: Cloud Run v2 service + Cloud SQL PostgreSQL (private IP only, TLS only)
# + Secret Manager + a service account with roles/aiplatform.user and roles/cloudsql.client only
# + Serverless VPC Access connector so the gateway reaches the on-prem GPU node over VPN /
# Interconnect (routes of network_name).

locals {
  network_id = "projects/${var.project_id}/global/networks/${var.network_name}"
  sa_member  = "serviceAccount:${google_service_account.gateway.email}"

  apis = [
    "aiplatform.googleapis.com",
    "compute.googleapis.com",
    "run.googleapis.com",
    "secretmanager.googleapis.com",
    "servicenetworking.googleapis.com",
    "sqladmin.googleapis.com",
    "vpcaccess.googleapis.com",
  ]

  # The only project-level roles the gateway's identity gets.
  gateway_project_roles = ["roles/aiplatform.user", "roles/cloudsql.client"]

  database_url = format(
    "postgresql+psycopg://%s:%s@%s:5432/%s?sslmode=require",
    google_sql_user.gateway.name,
    random_password.database.result,
    google_sql_database_instance.gecit.private_ip_address,
    google_sql_database.gecit.name,
  )

  # ENV_NAME => secret id, for every secret the container reads.
  secret_env = merge(
    {
      GECIT_DATABASE_URL = google_secret_manager_secret.database_url.secret_id
      GECIT_ADMIN_KEY    = google_secret_manager_secret.admin_key.secret_id
    },
    var.secret_env,
  )
}

resource "google_project_service" "required" {
  for_each = var.enable_apis ? toset(local.apis) : toset([])

  project            = var.project_id
  service            = each.value
  disable_on_destroy = false
}

# --- identity --------------------------------------------------------------------------------

resource "google_service_account" "gateway" {
  project      = var.project_id
  account_id   = "${var.name}-gateway"
  display_name = "Geçit gateway (Cloud Run)"
  description  = "Runs the Geçit gateway: calls Vertex AI and connects to its Cloud SQL instance."
}

resource "google_project_iam_member" "gateway" {
  for_each = toset(local.gateway_project_roles)

  project = var.project_id
  role    = each.value
  member  = local.sa_member
}

# --- network -------------------------------------------------------------------------------

resource "google_compute_global_address" "private_services" {
  count = var.create_private_service_connection ? 1 : 0

  project       = var.project_id
  name          = "${var.name}-private-services"
  purpose       = "VPC_PEERING"
  address_type  = "INTERNAL"
  prefix_length = var.private_service_prefix_length
  network       = local.network_id

  depends_on = [google_project_service.required]
}

resource "google_service_networking_connection" "private_services" {
  count = var.create_private_service_connection ? 1 : 0

  network                 = local.network_id
  service                 = "servicenetworking.googleapis.com"
  reserved_peering_ranges = [google_compute_global_address.private_services[0].name]
}

resource "google_vpc_access_connector" "gateway" {
  project       = var.project_id
  name          = "${var.name}-vpc"
  region        = var.region
  network       = var.network_name
  ip_cidr_range = var.connector_cidr
  machine_type  = var.connector_machine_type
  min_instances = var.connector_min_instances
  max_instances = var.connector_max_instances

  depends_on = [google_project_service.required]
}

# --- database --------------------------------------------------------------------------------

resource "google_sql_database_instance" "gecit" {
  #checkov:skip=CKV_GCP_6:ssl_mode ENCRYPTED_ONLY refuses every non-TLS connection; the check also demands client certificates (mTLS), which Cloud Run would have to carry as extra secrets. Access is private-IP only plus a password.
  #checkov:skip=CKV_GCP_79:database_version is a variable; the default pins POSTGRES_16, the version the gateway is tested with (compose and RDS use 16 too). Set POSTGRES_18 once tested.
  project             = var.project_id
  name                = "${var.name}-pg"
  region              = var.region
  database_version    = var.database_version
  deletion_protection = var.deletion_protection

  settings {
    tier                        = var.database_tier
    availability_type           = var.database_availability_type
    disk_type                   = "PD_SSD"
    disk_size                   = var.database_disk_size_gb
    disk_autoresize             = true
    deletion_protection_enabled = var.deletion_protection
    user_labels                 = var.labels

    ip_configuration {
      # No public IP: reachable only from the VPC (and so from the VPC connector).
      ipv4_enabled    = false
      private_network = local.network_id
      # TLS only; unencrypted connections are refused by the server.
      ssl_mode = "ENCRYPTED_ONLY"
    }

    backup_configuration {
      enabled                        = true
      point_in_time_recovery_enabled = true
      start_time                     = "02:00"
      transaction_log_retention_days = 7

      backup_retention_settings {
        retained_backups = 14
      }
    }

    maintenance_window {
      day  = 7
      hour = 3
    }

    insights_config {
      query_insights_enabled  = true
      record_application_tags = false
      record_client_address   = false
    }

    database_flags {
      name  = "log_checkpoints"
      value = "on"
    }
    database_flags {
      name  = "log_connections"
      value = "on"
    }
    database_flags {
      name  = "log_disconnections"
      value = "on"
    }
    database_flags {
      name  = "log_lock_waits"
      value = "on"
    }
    database_flags {
      name  = "log_min_messages"
      value = "error"
    }
    database_flags {
      name  = "log_hostname"
      value = "on"
    }
    database_flags {
      name  = "log_duration"
      value = "on"
    }
    # DDL only: DML text may carry personal data (KVKK).
    database_flags {
      name  = "log_statement"
      value = "ddl"
    }
    database_flags {
      name  = "log_temp_files"
      value = "0"
    }
    # -1 = never log statement text: statements may carry personal data (KVKK).
    database_flags {
      name  = "log_min_duration_statement"
      value = "-1"
    }
    database_flags {
      name  = "log_min_error_statement"
      value = "error"
    }
    database_flags {
      name  = "cloudsql.enable_pgaudit"
      value = "on"
    }
  }

  depends_on = [google_service_networking_connection.private_services, google_project_service.required]
}

resource "google_sql_database" "gecit" {
  project  = var.project_id
  instance = google_sql_database_instance.gecit.name
  name     = "gecit"
}

resource "random_password" "database" {
  length  = 40
  special = false
}

resource "google_sql_user" "gateway" {
  project  = var.project_id
  instance = google_sql_database_instance.gecit.name
  name     = "gecit"
  password = random_password.database.result
}

# --- secrets (replicated only inside var.region) ------------------------------------------

resource "google_secret_manager_secret" "database_url" {
  project   = var.project_id
  secret_id = "${var.name}-database-url"
  labels    = var.labels

  replication {
    user_managed {
      replicas {
        location = var.region
      }
    }
  }

  depends_on = [google_project_service.required]
}

resource "google_secret_manager_secret_version" "database_url" {
  secret      = google_secret_manager_secret.database_url.id
  secret_data = local.database_url
}

resource "random_password" "admin_key" {
  length  = 48
  special = false
}

resource "google_secret_manager_secret" "admin_key" {
  project   = var.project_id
  secret_id = "${var.name}-admin-key"
  labels    = var.labels

  replication {
    user_managed {
      replicas {
        location = var.region
      }
    }
  }

  depends_on = [google_project_service.required]
}

resource "google_secret_manager_secret_version" "admin_key" {
  secret      = google_secret_manager_secret.admin_key.id
  secret_data = random_password.admin_key.result
}

resource "google_secret_manager_secret" "policy" {
  count = var.policy_yaml == null ? 0 : 1

  project   = var.project_id
  secret_id = "${var.name}-policy"
  labels    = var.labels

  replication {
    user_managed {
      replicas {
        location = var.region
      }
    }
  }

  depends_on = [google_project_service.required]
}

resource "google_secret_manager_secret_version" "policy" {
  count = var.policy_yaml == null ? 0 : 1

  secret      = google_secret_manager_secret.policy[0].id
  secret_data = var.policy_yaml
}

# Access to each secret is granted on that secret only, never project-wide.
resource "google_secret_manager_secret_iam_member" "gateway" {
  for_each = merge(local.secret_env, var.policy_yaml == null ? {} : { GECIT_POLICY_FILE = "${var.name}-policy" })

  project   = var.project_id
  secret_id = each.value
  role      = "roles/secretmanager.secretAccessor"
  member    = local.sa_member

  depends_on = [google_secret_manager_secret.policy]
}

# --- the gateway ---------------------------------------------------------------------------

resource "google_cloud_run_v2_service" "gateway" {
  project             = var.project_id
  name                = var.name
  location            = var.region
  ingress             = var.ingress
  deletion_protection = var.deletion_protection
  labels              = var.labels

  template {
    service_account                  = google_service_account.gateway.email
    max_instance_request_concurrency = var.concurrency
    timeout                          = "${var.request_timeout_seconds}s"
    execution_environment            = "EXECUTION_ENVIRONMENT_GEN2"

    scaling {
      min_instance_count = var.min_instances
      max_instance_count = var.max_instances
    }

    # Private ranges (Cloud SQL, the on-prem node over VPN) through the connector; public
    # Google APIs (Vertex AI) and other clouds directly.
    vpc_access {
      connector = google_vpc_access_connector.gateway.id
      egress    = "PRIVATE_RANGES_ONLY"
    }

    containers {
      image = var.image
      args  = ["serve"]

      ports {
        container_port = 8080
      }

      resources {
        limits = {
          cpu    = var.cpu
          memory = var.memory
        }
        cpu_idle          = !var.cpu_always_allocated
        startup_cpu_boost = true
      }

      env {
        name  = "GECIT_HOST"
        value = "0.0.0.0"
      }
      env {
        name  = "GECIT_PORT"
        value = "8080"
      }
      env {
        name  = "GECIT_REQUIRE_KEYS"
        value = "true"
      }
      env {
        name  = "GECIT_LOCAL_ENGINE"
        value = "false"
      }
      env {
        name  = "GOOGLE_CLOUD_PROJECT"
        value = var.project_id
      }
      env {
        name  = "GOOGLE_CLOUD_LOCATION"
        value = var.region
      }
      dynamic "env" {
        for_each = var.policy_yaml == null ? [] : ["/etc/gecit/policy/policy.yaml"]
        content {
          name  = "GECIT_POLICY"
          value = env.value
        }
      }

      dynamic "env" {
        for_each = local.secret_env
        content {
          name = env.key
          value_source {
            secret_key_ref {
              secret  = env.value
              version = "latest"
            }
          }
        }
      }

      dynamic "volume_mounts" {
        for_each = var.policy_yaml == null ? [] : ["policy"]
        content {
          name       = volume_mounts.value
          mount_path = "/etc/gecit/policy"
        }
      }

      startup_probe {
        period_seconds    = 2
        timeout_seconds   = 2
        failure_threshold = 30
        http_get {
          path = "/readyz"
        }
      }

      liveness_probe {
        period_seconds    = 15
        timeout_seconds   = 3
        failure_threshold = 3
        http_get {
          path = "/healthz"
        }
      }
    }

    dynamic "volumes" {
      for_each = var.policy_yaml == null ? [] : ["policy"]
      content {
        name = volumes.value
        secret {
          secret = google_secret_manager_secret.policy[0].secret_id
          items {
            # A pinned version: a policy change rolls a new revision.
            version = google_secret_manager_secret_version.policy[0].version
            path    = "policy.yaml"
          }
        }
      }
    }
  }

  depends_on = [
    google_project_iam_member.gateway,
    google_secret_manager_secret_iam_member.gateway,
    google_secret_manager_secret_version.database_url,
    google_secret_manager_secret_version.admin_key,
  ]
}

resource "google_cloud_run_v2_service_iam_member" "public" {
  count = var.allow_unauthenticated ? 1 : 0

  project  = var.project_id
  location = var.region
  name     = google_cloud_run_v2_service.gateway.name
  role     = "roles/run.invoker"
  member   = "allUsers"
}

resource "google_cloud_run_v2_service_iam_member" "invokers" {
  for_each = var.allow_unauthenticated ? toset([]) : toset(var.invoker_members)

  project  = var.project_id
  location = var.region
  name     = google_cloud_run_v2_service.gateway.name
  role     = "roles/run.invoker"
  member   = each.value
}
