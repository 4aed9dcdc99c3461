terraform {
  required_version = ">= 1.5.0"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.0, < 7.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.5, < 4.0"
    }
  }

  # Keep state in an encrypted, access-controlled bucket: it contains the generated database
  # password and admin key. Example:
  # backend "gcs" {
  #   bucket = "my-tfstate-bucket"
  #   prefix = "gecit/gcp"
  # }
}

provider "google" {
  project = var.project_id
  region  = var.region
}
